// The kernel's call site of a vector or advanced API, found from the stack when a
// report is made: these APIs keep CANN's exact signatures (kernels take pointers to
// them), so they cannot take the call site as a defaulted argument as DataCopy and
// the queue calls do. Nothing is recorded on the fast path: at a report, the return
// addresses of the reporting block's stack are read (backtrace), each mapped to its
// object and offset (dl_iterate_phdr), and the objects that carry DWARF line tables
// are asked for the source lines, inlined frames included (binutils' addr2line). The
// site is the first line outside the simulator after its frames: the kernel's line
// that called into it (through a function pointer too). Without debug info (-g) in
// the kernel's object, or without addr2line, no site is named; nor when addr2line does
// not finish in kAddr2lineTimeoutMs (it is killed, and not run again in this process).
#include <elf.h>
#include <execinfo.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "stack_site.h"

extern char** environ;

namespace ascend_sim::detail {

namespace {

struct Frame {
    std::string object;  // its file
    uintptr_t offset;    // the call's address in the object's own addresses
};

std::string main_program() {
    char path[4096];
    const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    return n > 0 ? std::string(path, size_t(n)) : std::string();
}

// The object holding pc and pc's address within it (the load bias subtracted).
bool locate(uintptr_t pc, Frame* out) {
    struct Query {
        uintptr_t pc;
        Frame* out;
        bool found;
    } q{pc, out, false};
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* data) {
            auto* q = static_cast<Query*>(data);
            for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
                const ElfW(Phdr)& ph = info->dlpi_phdr[i];
                const uintptr_t lo = info->dlpi_addr + ph.p_vaddr;
                if (ph.p_type != PT_LOAD || q->pc < lo || q->pc >= lo + ph.p_memsz) continue;
                // The main program is listed without a name (its path, not /proc/self/exe,
                // which would be addr2line's own).
                q->out->object = info->dlpi_name && *info->dlpi_name ? info->dlpi_name : main_program();
                q->out->offset = q->pc - info->dlpi_addr;
                q->found = true;
                return 1;
            }
            return 0;
        },
        &q);
    return q.found;
}

// Whether the ELF file has a DWARF line table (.debug_line): only then can it name lines.
bool has_line_table(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    ElfW(Ehdr) eh;
    if (!f.read(reinterpret_cast<char*>(&eh), sizeof eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        eh.e_shentsize != sizeof(ElfW(Shdr)) || eh.e_shstrndx >= eh.e_shnum)
        return false;
    std::vector<ElfW(Shdr)> sh(eh.e_shnum);
    f.seekg(std::streamoff(eh.e_shoff));
    if (!f.read(reinterpret_cast<char*>(sh.data()), std::streamsize(sh.size() * sizeof(ElfW(Shdr))))) return false;
    std::string names(sh[eh.e_shstrndx].sh_size, '\0');
    f.seekg(std::streamoff(sh[eh.e_shstrndx].sh_offset));
    if (!f.read(names.data(), std::streamsize(names.size()))) return false;
    for (const ElfW(Shdr)& s : sh)
        if (s.sh_name < names.size() && std::strcmp(names.c_str() + s.sh_name, ".debug_line") == 0) return true;
    return false;
}

bool has_line_table_cached(const std::string& path) {
    static std::mutex mu;
    static std::map<std::string, bool> known;
    std::lock_guard<std::mutex> lk(mu);
    auto it = known.find(path);
    if (it == known.end()) it = known.emplace(path, has_line_table(path)).first;
    return it->second;
}

// How long one addr2line may take. One that takes longer (a hung or very slow binary of
// that name on PATH) is killed, with its process group (a script's children too), and
// none is run again in this process: every later report would wait as long again.
constexpr int kAddr2lineTimeoutMs = 10000;
std::atomic<bool> g_gaveUp{false};

int ms_left(std::chrono::steady_clock::time_point deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    return left.count() > 0 ? int(left.count()) : 0;
}

// Waits for pid until the deadline (true: it exited and is reaped).
bool reap_by(pid_t pid, std::chrono::steady_clock::time_point deadline) {
    for (;;) {
        int status;
        const pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR)) return true;
        if (ms_left(deadline) == 0) return false;
        usleep(1000);
    }
}

// What `argv` prints on stdout within kAddr2lineTimeoutMs ("" when it cannot run, or
// does not finish in time).
std::string run(const std::vector<std::string>& argv) {
    if (g_gaveUp.load()) return {};
    int fd[2];
    if (pipe(fd) != 0) return {};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    posix_spawn_file_actions_addclose(&fa, fd[1]);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    posix_spawnattr_t attr;  // a process group of its own, to kill it with its children
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid;
    const int rc = posix_spawnp(&pid, args[0], &fa, &attr, args.data(), environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    std::string out;
    if (rc == 0) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kAddr2lineTimeoutMs);
        bool eof = false;
        char buf[4096];
        while (!eof) {
            pollfd p{fd[0], POLLIN, 0};
            const int left = ms_left(deadline);
            const int r = left > 0 ? poll(&p, 1, left) : 0;
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) break;  // the deadline (or a poll error)
            const ssize_t k = read(fd[0], buf, sizeof buf);
            if (k > 0) out.append(buf, size_t(k));
            else if (k == 0 || errno != EINTR) eof = true;
        }
        if (!eof || !reap_by(pid, deadline)) {
            kill(-pid, SIGKILL);
            while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
            }
            g_gaveUp.store(true);
            out.clear();
        }
    }
    close(fd[0]);
    return out;
}

struct Location {
    std::string function, file;
    int line = 0;  // 0: unknown
};

// addr2line -a -f -i -C: per address its "0x..." line, then (function, file:line) pairs,
// innermost inlined frame first.
std::vector<std::vector<Location>> symbolize(const std::string& object, const std::vector<uintptr_t>& offsets) {
    std::vector<std::string> argv{"addr2line", "-e", object, "-a", "-f", "-i", "-C"};
    for (uintptr_t o : offsets) {
        char b[32];
        std::snprintf(b, sizeof b, "0x%llx", (unsigned long long)o);
        argv.push_back(b);
    }
    std::vector<std::vector<Location>> out;
    const std::string text = run(argv);
    std::vector<std::string> lines;
    for (size_t at = 0; at < text.size();) {
        const size_t nl = text.find('\n', at);
        lines.push_back(text.substr(at, nl == std::string::npos ? std::string::npos : nl - at));
        at = nl == std::string::npos ? text.size() : nl + 1;
    }
    for (size_t i = 0; i < lines.size();) {
        if (lines[i].rfind("0x", 0) == 0) {
            out.emplace_back();
            ++i;
            continue;
        }
        if (out.empty() || i + 1 >= lines.size()) break;
        Location l;
        l.function = lines[i];
        std::string loc = lines[i + 1];
        i += 2;
        const size_t sp = loc.find(" (discriminator");
        if (sp != std::string::npos) loc.resize(sp);
        const size_t colon = loc.rfind(':');
        if (colon != std::string::npos && loc.compare(0, 2, "??") != 0) {
            l.file = loc.substr(0, colon);
            l.line = std::atoi(loc.c_str() + colon + 1);
        }
        out.back().push_back(l);
    }
    if (out.size() != offsets.size()) out.assign(offsets.size(), {});
    return out;
}

bool in_simulator(const std::string& file) {
    return file.find("sim/include/") != std::string::npos || file.find("sim/src/") != std::string::npos;
}
bool in_system(const std::string& file) { return file.rfind("/usr/", 0) == 0; }

// "Add" of "void AscendC::Add<float>(AscendC::LocalTensor<float> const&, ...)"; "" for
// the simulator's internal functions (AscendC::sim_vec::unary, ascend_sim::detail::...),
// which are outermost when the API's own frame was a tail call.
std::string simple_name(const std::string& function) {
    int depth = 0;
    size_t end = function.size();
    for (size_t i = 0; i < function.size(); ++i) {
        const char c = function[i];
        if (c == '<') ++depth;
        else if (c == '>') --depth;
        else if (c == '(' && depth == 0) {
            end = i;
            break;
        }
    }
    std::string s = function.substr(0, end);
    while (!s.empty() && s.back() == '>') {  // template arguments
        int d = 0;
        size_t i = s.size();
        while (i-- > 0) {
            if (s[i] == '>') ++d;
            else if (s[i] == '<' && --d == 0) break;
        }
        if (i == std::string::npos || i >= s.size()) return {};
        s.resize(i);
    }
    const size_t colon = s.rfind("::"), space = s.rfind(' ');
    size_t from = 0;
    if (colon != std::string::npos) from = colon + 2;
    if (space != std::string::npos && space + 1 > from) from = space + 1;
    const std::string scope = s.substr(0, from);
    if (scope.find("sim") != std::string::npos || scope.find("detail") != std::string::npos ||
        scope.find("anonymous") != std::string::npos)
        return {};
    s = s.substr(from);
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return {};
    return s;
}

StackSite find_site(const std::vector<uintptr_t>& pcs) {
    std::vector<Frame> frames(pcs.size());
    std::map<std::string, std::vector<size_t>> byObject;  // frames of each object with a line table
    for (size_t i = 0; i < pcs.size(); ++i)
        if (locate(pcs[i] - 1, &frames[i]) && has_line_table_cached(frames[i].object))  // - 1: inside the call
            byObject[frames[i].object].push_back(i);
    std::vector<std::vector<Location>> chain(pcs.size());
    for (const auto& [object, idx] : byObject) {
        std::vector<uintptr_t> offsets;
        for (size_t i : idx) offsets.push_back(frames[i].offset);
        const std::vector<std::vector<Location>> locs = symbolize(object, offsets);
        for (size_t k = 0; k < idx.size(); ++k) chain[idx[k]] = locs[k];
    }
    bool inSim = false;
    std::string api;  // the outermost simulator function: the API the kernel called
    for (const std::vector<Location>& frame : chain) {
        if (frame.empty() && inSim) return {};  // a frame of unknown source after the simulator's
        for (const Location& l : frame) {
            if (!l.line) {
                if (inSim) return {};
                continue;
            }
            if (in_simulator(l.file)) {
                inSim = true;
                api = l.function;
            } else if (inSim && !in_system(l.file)) {
                return {l.file + ":" + std::to_string(l.line), simple_name(api)};
            }
        }
    }
    return {};
}

}  // namespace

StackSite stack_site() {
    void* raw[128];
    const int n = backtrace(raw, 128);
    std::vector<uintptr_t> pcs;
    for (int i = 1; i < n; ++i) pcs.push_back(reinterpret_cast<uintptr_t>(raw[i]));  // 0: this function
    static std::mutex mu;
    static std::map<std::vector<uintptr_t>, StackSite> seen;  // a site reported again costs a lookup
    {
        std::lock_guard<std::mutex> lk(mu);
        auto it = seen.find(pcs);
        if (it != seen.end()) return it->second;
    }
    StackSite s = find_site(pcs);
    std::lock_guard<std::mutex> lk(mu);
    seen.emplace(pcs, s);
    return s;
}

}  // namespace ascend_sim::detail
