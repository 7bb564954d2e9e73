// Asio and Beast are compiled once, in this translation unit (BOOST_ASIO_SEPARATE_COMPILATION
// and BOOST_BEAST_SEPARATE_COMPILATION are set for the whole library), so the transport's other
// files stay cheap to build on 2 cores.
#include <boost/asio/impl/src.hpp>
#include <boost/beast/src.hpp>
