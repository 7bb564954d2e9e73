// The hot-path JSON writer (json/text_writer.hpp) against boost::json::serialize, byte for byte.
#include "json/text_writer.hpp"

#include <gtest/gtest.h>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <cstdint>
#include <limits>
#include <string>

namespace {

using mcp::detail::append_json;
using mcp::detail::append_members;

std::string written(const boost::json::value& v) {
    std::string out = "prefix:";  // appended, never overwritten
    append_json(out, v);
    EXPECT_EQ(out.substr(0, 7), "prefix:");
    return out.substr(7);
}

TEST(JsonTextWriter, ScalarsAsBoostWritesThem) {
    for (const boost::json::value& v :
         {boost::json::value(nullptr), boost::json::value(true), boost::json::value(false), boost::json::value(0),
          boost::json::value(-1), boost::json::value(std::numeric_limits<std::int64_t>::min()),
          boost::json::value(std::numeric_limits<std::int64_t>::max()),
          boost::json::value(std::numeric_limits<std::uint64_t>::max()), boost::json::value(0.5),
          boost::json::value(-1e300), boost::json::value(3.141592653589793), boost::json::value(1e-7),
          boost::json::value(0.0), boost::json::value(std::numeric_limits<double>::infinity())}) {
        EXPECT_EQ(written(v), boost::json::serialize(v));
    }
}

TEST(JsonTextWriter, EveryByteInAStringAsBoostWritesIt) {
    std::string all;
    for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
    const boost::json::value v(all);
    EXPECT_EQ(written(v), boost::json::serialize(v));
    // The same bytes as a key.
    const boost::json::value o = boost::json::object{{all, all}};
    EXPECT_EQ(written(o), boost::json::serialize(o));
    EXPECT_EQ(written(boost::json::value("")), "\"\"");
}

TEST(JsonTextWriter, AByteToEscapeAtEveryPositionOfAWord) {
    // The scan goes sixteen (or eight) bytes at a time: each special byte at each offset, in
    // strings of one block and a tail, two blocks, and longer than the short strings written at once.
    for (const char special : {'\0', '\x1f', '"', '\\', '\x20', '\x7f', '\x80', '\xff', '\n'}) {
        for (const std::size_t length :
             {1, 2, 3, 7, 8, 9, 14, 15, 16, 17, 24, 31, 32, 33, 40, 47, 48, 49, 127, 128, 129, 300}) {
            for (std::size_t at = 0; at < length; ++at) {
                std::string text(length, 'a');
                text[at] = special;
                const boost::json::value v(text);
                ASSERT_EQ(written(v), boost::json::serialize(v)) << int(special) << " at " << at << " of " << length;
            }
        }
    }
}

TEST(JsonTextWriter, DocumentsAsBoostWritesThem) {
    for (
        const char* text : {
            R"({})",
            R"([])",
            R"([[],{},[{}]])",
            R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a\"b\\c\nd"}}})",
            R"({"a":[1,-2,3.5,true,false,null,"x",{"b":{"c":[]}}],"é":"ü\u0001","":0})",
            R"([18446744073709551615,-9223372036854775808,1E400])",
        }) {
        const auto v = boost::json::parse(text);
        EXPECT_EQ(written(v), boost::json::serialize(v)) << text;
    }
}

TEST(JsonTextWriter, DeepValuesAsBoostWritesThem) {
    // Far deeper than the walk recurses: the levels below go through Boost.JSON's own serializer.
    boost::json::value v = 1;
    for (int i = 0; i < 5000; ++i) {
        if (i % 2 != 0) {
            boost::json::array a;
            a.push_back(std::move(v));
            v = std::move(a);
        } else {
            boost::json::object o;
            o.emplace("k", std::move(v));
            v = std::move(o);
        }
    }
    EXPECT_EQ(written(v), boost::json::serialize(v));
}

TEST(JsonTextWriter, MembersWithoutBraces) {
    std::string out = "{\"first\":1,";
    append_members(out, boost::json::object{{"a", 1}, {"b", boost::json::object{{"c", "d"}}}});
    EXPECT_EQ(out, R"({"first":1,"a":1,"b":{"c":"d"})");
    std::string none;
    append_members(none, boost::json::object());
    EXPECT_EQ(none, "");
}

}  // namespace
