// output_check.hpp — whether the command's output really went out. Every command ends through
// finish_output() (main.cpp): a command whose output could not be written (a full disk,
// `> /dev/full`, a closed stdout or pipe) must not exit 0 as if it had.
//
// Note [Output that cannot be written]
// std::cout buffers, so a failed write shows only when the buffer is flushed, or as the stream's
// badbit after an earlier failed write. finish_output() flushes std::cout and stdio's stdout and
// checks both; on failure it says so on stderr (naming the system's reason) and turns the exit
// code into kExitOutputError (74, EX_IOERR), whatever the command returned. A stdout that is
// closed when the command starts is first held by a read-only /dev/null (guard_closed_stdout),
// so that no file the runtime opens later can take descriptor 1 and receive the output: the
// writes then fail and are reported like any other.
#pragma once

namespace kf::cli {

/// Makes sure descriptor 1 is open (read-only /dev/null when it was closed). Call first.
void guard_closed_stdout();

/// Flushes stdout; `exit_code`, or kExitOutputError with a message on stderr when anything
/// written to stdout was lost.
int finish_output(int exit_code);

}  // namespace kf::cli
