#include <cstring>
#include <exception>

#include "xtest.h"

int main(int argc, char** argv) {
    const char* filter = argc > 1 ? argv[1] : nullptr;
    int passed = 0, failed = 0;
    for (const auto& c : xtest::registry()) {
        if (filter && !std::strstr(c.name, filter)) continue;
        try {
            c.body();
            ++passed;
            std::printf("[ ok ] %s\n", c.name);
        } catch (const std::exception& e) {
            ++failed;
            std::printf("[FAIL] %s\n       %s\n", c.name, e.what());
        }
        std::fflush(stdout);
    }
    std::printf("%d passed, %d failed\n", passed, failed);
    return (failed == 0 && passed > 0) ? 0 : 1;
}
