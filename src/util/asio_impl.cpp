// Asio is compiled once, in this translation unit (BOOST_ASIO_SEPARATE_COMPILATION is set for every
// layer), for the two layers that use it: the Redis client (store) and the HTTP transport.
#include <boost/asio/impl/src.hpp>
