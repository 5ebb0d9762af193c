/* A stand-in for the official dlpack.h included after kernforge.h: it has the official include
 * guard, and its contents would not compile next to kernforge/dlpack.h's declarations. The
 * guard kernforge/dlpack.h defines must make a compiler skip it. */
#ifndef DLPACK_DLPACK_H_
#define DLPACK_DLPACK_H_
typedef int DLTensor;
typedef double DLManagedTensorVersioned;
#endif
