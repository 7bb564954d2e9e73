#include <mcp/json/bind.hpp>

#include <gtest/gtest.h>
#include <boost/describe.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <map>

namespace bindtest {

enum class Mode { fast, careful };
BOOST_DESCRIBE_ENUM(Mode, fast, careful)

struct Address {
    std::string city;
    std::optional<std::string> street;
};
BOOST_DESCRIBE_STRUCT(Address, (), (city, street))

// Views into the source document (request params are bound this way).
struct Viewed {
    std::string_view name;
    const boost::json::object* arguments = nullptr;
    const boost::json::value* id = nullptr;
    const boost::json::array* items = nullptr;
    std::optional<std::string_view> cursor;
};
BOOST_DESCRIBE_STRUCT(Viewed, (), (name, arguments, id, items, cursor))

struct Person {
    std::string name;
    int age;
    bool active;
    double score;
    Mode mode;
    std::vector<std::string> tags;
    std::set<int> lucky;
    std::map<std::string, int> counters;
    Address address;
    std::optional<std::uint8_t> level;
    boost::json::value extra;
};
BOOST_DESCRIBE_STRUCT(Person, (), (name, age, active, score, mode, tags, lucky, counters, address, level, extra))

}  // namespace bindtest

using namespace bindtest;
using mcp::json::BindError;
using mcp::json::from_json;
using mcp::json::to_json;

namespace {

boost::json::value parse(std::string_view s) { return boost::json::parse(s); }

const char* kPerson = R"({"name":"Ada","age":36,"active":true,"score":9.5,"mode":"careful","tags":["a","b"],
  "lucky":[3,7],"counters":{"x":1},"address":{"city":"London"},"level":3,"extra":{"any":[1,null]}})";

std::string error_of(const boost::json::value& v) {
    try {
        (void)from_json<Person>(v);
    } catch (const BindError& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST(JsonBind, DecodesEveryKindOfField) {
    auto p = from_json<Person>(parse(kPerson));
    EXPECT_EQ(p.name, "Ada");
    EXPECT_EQ(p.age, 36);
    EXPECT_TRUE(p.active);
    EXPECT_DOUBLE_EQ(p.score, 9.5);
    EXPECT_EQ(p.mode, Mode::careful);
    EXPECT_EQ(p.tags, (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(p.lucky, (std::set<int>{3, 7}));
    EXPECT_EQ(p.counters.at("x"), 1);
    EXPECT_EQ(p.address.city, "London");
    EXPECT_FALSE(p.address.street.has_value());
    EXPECT_EQ(p.level, 3);
    EXPECT_EQ(boost::json::serialize(p.extra), R"({"any":[1,null]})");
}

TEST(JsonBind, RoundTripsAndOmitsEmptyOptionals) {
    auto p = from_json<Person>(parse(kPerson));
    auto v = to_json(p);
    EXPECT_EQ(from_json<Person>(v).name, "Ada");
    EXPECT_FALSE(v.at("address").as_object().contains("street"));
    EXPECT_EQ(v.at("mode").as_string(), "careful");
    EXPECT_EQ(v.at("lucky").as_array().size(), 2u);
}

TEST(JsonBind, IntegralDoublesAreIntegers) {
    auto v = parse(kPerson);
    v.as_object()["age"] = 36.0;
    EXPECT_EQ(from_json<Person>(v).age, 36);
    v.as_object()["age"] = 36.5;
    EXPECT_EQ(error_of(v), "/age: expected integer, got number");
}

TEST(JsonBind, ErrorsNameTheField) {
    auto v = parse(kPerson);
    v.as_object()["address"].as_object()["city"] = 5;
    EXPECT_EQ(error_of(v), "/address/city: expected string, got integer");

    v = parse(kPerson);
    v.as_object()["tags"].as_array()[1] = false;
    EXPECT_EQ(error_of(v), "/tags/1: expected string, got boolean");

    v = parse(kPerson);
    v.as_object().erase("name");
    EXPECT_EQ(error_of(v), "/: missing required property \"name\"");

    v = parse(kPerson);
    v.as_object()["mode"] = "reckless";
    EXPECT_EQ(error_of(v), "/mode: \"reckless\" is not one of the allowed values");

    v = parse(kPerson);
    v.as_object()["counters"].as_object()["a/b~c"] = "x";
    EXPECT_EQ(error_of(v), "/counters/a~1b~0c: expected integer, got string");
}

TEST(JsonBind, RangeChecks) {
    auto v = parse(kPerson);
    v.as_object()["level"] = 300;
    EXPECT_EQ(error_of(v), "/level: integer out of range [0, 255]");
    v.as_object()["level"] = -1;
    EXPECT_EQ(error_of(v), "/level: expected a non-negative integer");
    v = parse(kPerson);
    v.as_object()["age"] = parse("9223372036854775808");  // uint64 beyond int
    EXPECT_NE(error_of(v).find("/age: integer out of range"), std::string::npos);
    v.as_object()["age"] = 1e300;
    EXPECT_NE(error_of(v).find("/age: integer out of range"), std::string::npos);
}

TEST(JsonBind, DuplicateSetItemsAreRefused) {
    auto v = parse(kPerson);
    v.as_object()["lucky"] = parse("[1,2,1]");
    EXPECT_EQ(error_of(v), "/lucky/2: duplicate item");
}

TEST(JsonBind, NullIsAnEmptyOptionalButNotAString) {
    auto v = parse(kPerson);
    v.as_object()["level"] = nullptr;
    EXPECT_FALSE(from_json<Person>(v).level.has_value());
    v.as_object()["name"] = nullptr;
    EXPECT_EQ(error_of(v), "/name: expected string, got null");
}

TEST(JsonBind, WrongRootKind) {
    EXPECT_EQ(error_of(parse("[]")), "/: expected object, got array");
    EXPECT_EQ(error_of(parse("\"x\"")), "/: expected object, got string");
}

TEST(JsonBind, ViewsPointIntoTheSourceWithoutCopying) {
    const auto doc = boost::json::parse(R"({"name":"echo","arguments":{"text":"hi"},"id":7,"items":[1],"cursor":"c"})");
    const auto v = mcp::json::from_json<bindtest::Viewed>(doc.as_object());
    EXPECT_EQ(v.name, "echo");
    EXPECT_EQ(v.name.data(), doc.at("name").as_string().data());  // a view, not a copy
    ASSERT_NE(v.arguments, nullptr);
    EXPECT_EQ(v.arguments, &doc.at("arguments").as_object());
    ASSERT_NE(v.id, nullptr);
    EXPECT_EQ(*v.id, boost::json::value(7));
    ASSERT_NE(v.items, nullptr);
    EXPECT_EQ(v.items->size(), 1u);
    EXPECT_EQ(v.cursor, "c");
    EXPECT_EQ(boost::json::serialize(mcp::json::to_json(v)), boost::json::serialize(doc));

    // Absent or null: no view; a view of the wrong kind: an error naming the member.
    const auto bare =
        mcp::json::from_json<bindtest::Viewed>(boost::json::parse(R"({"name":"x","arguments":null})").as_object());
    EXPECT_EQ(bare.arguments, nullptr);
    EXPECT_EQ(bare.id, nullptr);
    EXPECT_EQ(bare.items, nullptr);
    EXPECT_FALSE(bare.cursor.has_value());
    for (const char* bad : {R"({"name":5})", R"({"name":"x","arguments":[]})", R"({"name":"x","items":{}})", R"({})"}) {
        try {
            mcp::json::from_json<bindtest::Viewed>(boost::json::parse(bad).as_object());
            ADD_FAILURE() << bad;
        } catch (const mcp::json::BindError& e) {
            EXPECT_FALSE(std::string(e.what()).empty()) << bad;
        }
    }
}
