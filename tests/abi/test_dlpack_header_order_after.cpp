// kernforge.h first, then a header with the official dlpack.h's include guard whose contents
// would clash (dlpack_fixtures/conflicting_dlpack.h): that it compiles at all is the test.
#include "kernforge/kernforge.h"
#include "dlpack_fixtures/conflicting_dlpack.h"

#include <type_traits>

static_assert(sizeof(DLManagedTensorVersioned) > sizeof(double) &&
                  !std::is_same_v<DLTensor, int>,
              "the clashing header was skipped");
