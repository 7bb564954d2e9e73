// Beast is compiled once, in this translation unit (BOOST_BEAST_SEPARATE_COMPILATION is set for every
// layer), for the HTTP client here and the HTTP transport, so their other files stay cheap to build.
#include <boost/beast/src.hpp>
