// kernforge dtypes and reductions as MPI datatypes and operations, derived from each dtype's
// kind and bytes (kernforge/dtypes.hpp), never from a list of dtypes:
//  - float32/64, the integers and complex64/128: MPI's own types; sum, prod, min and max are
//    MPI's own operations (complex: sum and prod only, complex numbers have no order);
//  - bool (MPI_C_BOOL): sum and max are MPI_LOR, prod and min MPI_LAND; no avg;
//  - float16 and bfloat16, which MPI 3.1 has no type for: 16-bit words (MPI_UINT16_T) moved as
//    they are, reduced by the plugin's own operations (MPI_Op_create), each step of MPI's
//    algorithm in float32 and rounded back to 16 bits (as a half-precision kernel would);
//  - avg is MPI's sum, then a division by the world size on this rank (integers toward zero).
// Thread safety: the operations are made once, under std::call_once, after MPI started.
#pragma once

#include <cstdint>

#include <mpi.h>

namespace kfmpi {

/// The MPI datatype of a kernforge dtype; throws KF_INVALID_ARGUMENT for one MPI cannot carry.
MPI_Datatype mpi_type(int32_t dtype);
/// The MPI operation of a reduction on a dtype; throws KF_INVALID_ARGUMENT naming the dtype
/// and the reduction when MPI cannot reduce it so.
MPI_Op mpi_op(int32_t dtype, int32_t reduce_op);
/// Divides `n` elements of `dtype` at `data` by `world` (the end of an avg).
void divide(int32_t dtype, void* data, int64_t n, int world);

}  // namespace kfmpi
