#include "digest.hpp"

#include <openssl/evp.h>

namespace kf::opencl {

bool sha256(const void* data, size_t size, Digest& out) {
  unsigned int length = 0;
  return EVP_Digest(data, size, out.data(), &length, EVP_sha256(), nullptr) == 1 &&
         length == out.size();
}

}  // namespace kf::opencl
