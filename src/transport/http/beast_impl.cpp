// Beast is compiled once, in this translation unit (BOOST_BEAST_SEPARATE_COMPILATION is set for the
// HTTP layer), so the transport's other files stay cheap to build on 2 cores.
#include <boost/beast/src.hpp>
