#pragma once
// One loopback listening socket and one I/O context for a whole fuzzing run, for the targets that
// talk TCP to themselves (fuzz_http, fuzz_http_response).
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

struct Loopback {
    boost::asio::io_context io{1};
    boost::asio::ip::tcp::acceptor acceptor{
        io, boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), 0)};
};

inline Loopback& loopback() {
    static Loopback instance;
    return instance;
}
