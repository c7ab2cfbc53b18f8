// What a CPU-twin program (one that launches through ICPU_RUN_KF) gets at its end,
// as a program on CANN's twin does: a violation ICPU_RUN_KF printed and nobody
// caught ends the process without being printed a second time, and a run that went
// on after reports (ASCEND_XENT_CONTINUE_ON_REPORT) exits with status 1, saying how many.
#pragma once
#include <cstdint>
#include <exception>

namespace ascend_sim {
// Installs both (once per process): a std::terminate handler and an atexit hook.
void install_twin_program_hooks();
// The violation ICPU_RUN_KF has just printed (the terminate handler does not repeat it).
void twin_violation_printed(std::exception_ptr e);
// Reports launches of this process went on after, and their sites (continue on report).
uint64_t continued_report_hits();
uint64_t continued_report_sites();
}  // namespace ascend_sim
