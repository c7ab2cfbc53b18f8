#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

#include "xtest.h"

namespace {

// XTEST_SHARD="i/n": run only the cases whose position among the selected ones is i
// modulo n, so that n runs of one binary share its cases (the sanitizer build splits
// the kernel tests' cases between their two sync modes this way).
bool ParseShard(const char* text, int& index, int& count) {
    index = 0;
    count = 1;
    if (!text || !*text) return true;
    char* end = nullptr;
    const long i = std::strtol(text, &end, 10);
    if (end == text || *end != '/') return false;
    const char* rest = end + 1;
    const long n = std::strtol(rest, &end, 10);
    if (end == rest || *end != '\0' || n < 1 || n > 1000 || i < 0 || i >= n) return false;
    index = int(i);
    count = int(n);
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    const char* filter = argc > 1 ? argv[1] : nullptr;
    int shard = 0, shards = 1;
    if (!ParseShard(std::getenv("XTEST_SHARD"), shard, shards)) {
        std::fprintf(stderr, "XTEST_SHARD must be i/n with 0 <= i < n, got \"%s\"\n", std::getenv("XTEST_SHARD"));
        return 2;
    }
    int passed = 0, failed = 0, selected = 0;
    for (const auto& c : xtest::registry()) {
        if (filter && !std::strstr(c.name, filter)) continue;
        if (selected++ % shards != shard) continue;
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
    if (shards > 1) std::printf("shard %d/%d of %d cases: ", shard, shards, selected);
    std::printf("%d passed, %d failed\n", passed, failed);
    // A shard may be empty when there are fewer cases than shards; a whole run may not.
    const bool ran_enough = passed > 0 || (shards > 1 && selected > 0 && selected <= shard);
    return (failed == 0 && ran_enough) ? 0 : 1;
}
