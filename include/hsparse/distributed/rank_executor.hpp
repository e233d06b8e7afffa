#pragma once
/// @file
/// Each rank's executor in a distributed run: the one place a backend
/// choice becomes a rank's executor (the CLI, the bench and Python use it),
/// as make_executor is for one process.
#include <string>

#include "hsparse/core/communicator.hpp"
#include "hsparse/core/executor.hpp"

namespace hsparse::distributed {

/// Collective. `choice` as make_executor takes it ("auto", "cpu", "cuda").
/// On GPUs each rank takes device (node-local rank mod the visible
/// devices): one rank per GPU where there are as many GPUs as ranks on a
/// node; more ranks than GPUs share them round-robin (NCCL then stands
/// aside: it takes one rank per GPU). The node-local rank comes from the
/// launcher (OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID, SLURM_LOCALID),
/// else the rank. A rank that cannot make its executor fails every rank.
ExecutorPtr rank_executor(const Communicator& comm, const std::string& choice);

}  // namespace hsparse::distributed
