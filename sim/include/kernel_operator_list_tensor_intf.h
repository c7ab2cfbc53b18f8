// CANN's include name for ListTensorDesc / TensorDesc (include/basic_api/).
#pragma once
#include "ascend_sim/kernel_list_tensor.h"
