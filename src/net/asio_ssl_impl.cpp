// Asio's TLS support, compiled once (BOOST_ASIO_SEPARATE_COMPILATION): the HTTP client here and the
// HTTPS listener use it.
#include <boost/asio/ssl/impl/src.hpp>
