#pragma once
// Signature introspection for handler callables (lambdas, function pointers, functors).
#include <cstddef>
#include <tuple>
#include <type_traits>

namespace mcp::detail {

template <class R, class... A>
struct signature {
    using result = R;
    using args = std::tuple<std::remove_cvref_t<A>...>;
    static constexpr std::size_t arity = sizeof...(A);
};

template <class F>
struct callable : callable<decltype(&std::remove_cvref_t<F>::operator())> {};
template <class R, class... A>
struct callable<R (*)(A...)> : signature<R, A...> {};
template <class R, class... A>
struct callable<R (*)(A...) noexcept> : signature<R, A...> {};
template <class R, class... A>
struct callable<R(A...)> : signature<R, A...> {};
template <class C, class R, class... A>
struct callable<R (C::*)(A...)> : signature<R, A...> {};
template <class C, class R, class... A>
struct callable<R (C::*)(A...) const> : signature<R, A...> {};
template <class C, class R, class... A>
struct callable<R (C::*)(A...) noexcept> : signature<R, A...> {};
template <class C, class R, class... A>
struct callable<R (C::*)(A...) const noexcept> : signature<R, A...> {};

template <class F>
using result_of = typename callable<F>::result;
template <class F, std::size_t I>
using arg_of = std::tuple_element_t<I, typename callable<F>::args>;
template <class F>
inline constexpr std::size_t arity_of = callable<F>::arity;

// Whether the callable's last parameter is Ctx& (the handler wants a Context), and how many
// parameters come before it.
template <class F, class Ctx, bool = (arity_of<F> > 0)>
struct last_parameter_is : std::false_type {};
template <class F, class Ctx>
struct last_parameter_is<F, Ctx, true> : std::is_same<arg_of<F, arity_of<F> - 1>, Ctx> {};

}  // namespace mcp::detail
