#pragma once
// Owning handles for the OpenSSL objects the jose layer builds, each freed by its own function.
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

#include <memory>

namespace mcp::detail {

template <class T, void (*Free)(T*)>
struct OpensslFree {
    void operator()(T* p) const { Free(p); }
};
template <class T, void (*Free)(T*)>
using OpensslHandle = std::unique_ptr<T, OpensslFree<T, Free>>;

using Bignum = OpensslHandle<BIGNUM, BN_free>;
using ParamBuilder = OpensslHandle<OSSL_PARAM_BLD, OSSL_PARAM_BLD_free>;
using Params = OpensslHandle<OSSL_PARAM, OSSL_PARAM_free>;
using PkeyContext = OpensslHandle<EVP_PKEY_CTX, EVP_PKEY_CTX_free>;
using DigestContext = OpensslHandle<EVP_MD_CTX, EVP_MD_CTX_free>;

}  // namespace mcp::detail
