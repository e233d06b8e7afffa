#pragma once
// Ranks as threads of one process, for the distributed tests where no MPI
// launcher is at hand (CI's unit tests, the GPU machine): each thread gets a
// Communicator of the group, whose collectives meet at a barrier and whose
// messages travel through per-pair mailboxes. Test scaffolding only: the
// library's transport is MPI (docs/distributed.md).
#include <functional>

#include "hsparse/core/communicator.hpp"

namespace hsparse::test {

// Runs body(communicator) on `ranks` threads, one per rank, and joins them.
// An exception escaping a rank's body is rethrown here (the first one), after
// every thread ended; a rank that throws while others wait in a collective
// would leave them waiting, so bodies agree on failures as the library does.
void run_on_thread_ranks(int ranks, const std::function<void(const CommunicatorPtr&)>& body);

}  // namespace hsparse::test
