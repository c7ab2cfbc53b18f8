// Three cases for the harness's XTEST_SHARD test (tests/cpp/CMakeLists.txt): each
// checks it runs in registration order, so a shard that skips or repeats one fails.
#include "xtest.h"

namespace {
int g_ran = 0;
}

XTEST(first) { XCHECK_EQ(g_ran++, 0); }
XTEST(second) { XCHECK(g_ran++ <= 1); }
XTEST(third) { XCHECK(g_ran++ <= 2); }
