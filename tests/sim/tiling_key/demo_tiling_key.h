// An op's tiling-key template declaration, as ops-nn's op_kernel/*_tiling_key.h are:
// included by the kernel (kernel form) and by the host tiling (host form).
#pragma once
#include "ascendc/host_api/tiling/template_argument.h"

ASCENDC_TPL_ARGS_DECL(TilingKeyDemo, ASCENDC_TPL_UINT_DECL(schMode, 2, ASCENDC_TPL_UI_LIST, 0, 1, 5),
                      ASCENDC_TPL_DATATYPE_DECL(dType, C_DT_FLOAT, C_DT_FLOAT16),
                      ASCENDC_TPL_UINT_DECL(unroll, 4, ASCENDC_TPL_UI_MIX, 1, 2, 4, 9));
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(schMode, ASCENDC_TPL_UI_LIST, 0, 5),
                                     ASCENDC_TPL_DATATYPE_SEL(dType, ge::DT_FLOAT16),
                                     ASCENDC_TPL_UINT_SEL(unroll, ASCENDC_TPL_UI_LIST, 4)));
