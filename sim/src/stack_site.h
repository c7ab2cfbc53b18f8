// The kernel's call site of the API call in progress, from the stack (stack_site.cpp):
// for the APIs that cannot take it as an argument (the vector and advanced APIs).
#pragma once
#include <string>

namespace ascend_sim::detail {

struct StackSite {
    std::string where;  // "<file>:<line>" of the kernel's call; "" when unknown
    std::string api;    // the simulator function it called ("Add"), "" when unknown
};
// Only when a report is made: it walks and symbolizes the stack (cached per stack).
StackSite stack_site();

}  // namespace ascend_sim::detail
