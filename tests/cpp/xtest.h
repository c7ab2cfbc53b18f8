// A minimal test harness for the C++ tests: no third-party dependency, so a
// fresh machine needs only a compiler. Each test binary links xtest_main.cpp.
//
//   XTEST(suite_name) { XCHECK(x == 1); XCHECK_EQ(a, b); XCHECK_THROWS_WITH(expr, "substring"); }
//
// The binary runs every test (or those whose name contains argv[1]) and ends
// with the line "N passed, N failed"; its exit status is non-zero on failure.
#pragma once
#include <cmath>
#include <cstdio>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace xtest {

struct Failure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Case {
    const char* name;
    std::function<void()> body;
};

inline std::vector<Case>& registry() {
    static std::vector<Case> cases;
    return cases;
}

struct Registrar {
    Registrar(const char* name, std::function<void()> body) { registry().push_back({name, std::move(body)}); }
};

[[noreturn]] inline void fail(const char* file, int line, const std::string& what) {
    std::ostringstream os;
    os << file << ":" << line << ": " << what;
    throw Failure(os.str());
}

template <class A, class B>
void check_eq(const A& a, const B& b, const char* ea, const char* eb, const char* file, int line) {
    if (!(a == b)) {
        std::ostringstream os;
        os << "XCHECK_EQ(" << ea << ", " << eb << ") failed: " << a << " != " << b;
        fail(file, line, os.str());
    }
}

}  // namespace xtest

#define XTEST_CAT2(a, b) a##b
#define XTEST_CAT(a, b) XTEST_CAT2(a, b)
#define XTEST(name)                                                                   \
    static void name();                                                               \
    static ::xtest::Registrar XTEST_CAT(xtest_reg_, name)(#name, &name);               \
    static void name()

#define XCHECK(cond)                                                                  \
    do {                                                                              \
        if (!(cond)) ::xtest::fail(__FILE__, __LINE__, "XCHECK(" #cond ") failed");    \
    } while (0)

#define XCHECK_EQ(a, b) ::xtest::check_eq((a), (b), #a, #b, __FILE__, __LINE__)

#define XCHECK_NEAR(a, b, tol)                                                        \
    do {                                                                              \
        double xa_ = (a), xb_ = (b);                                                  \
        if (!(std::abs(xa_ - xb_) <= (tol))) {                                        \
            std::ostringstream os_;                                                   \
            os_ << "XCHECK_NEAR(" #a ", " #b ") failed: " << xa_ << " vs " << xb_;    \
            ::xtest::fail(__FILE__, __LINE__, os_.str());                             \
        }                                                                             \
    } while (0)

// Runs expr, which must throw a std::exception whose what() contains every
// one of the given substrings.
#define XCHECK_THROWS_WITH(expr, ...)                                                 \
    do {                                                                              \
        bool thrown_ = false;                                                         \
        try {                                                                         \
            expr;                                                                     \
        } catch (const ::xtest::Failure&) {                                           \
            throw;                                                                    \
        } catch (const std::exception& e_) {                                          \
            thrown_ = true;                                                           \
            std::string msg_ = e_.what();                                             \
            for (const char* s_ : {__VA_ARGS__})                                      \
                if (msg_.find(s_) == std::string::npos)                               \
                    ::xtest::fail(__FILE__, __LINE__,                                 \
                                  std::string("message lacks \"") + s_ + "\": " + msg_); \
        }                                                                             \
        if (!thrown_) ::xtest::fail(__FILE__, __LINE__, "expected an exception: " #expr); \
    } while (0)
