#include <mcp/json/schema.hpp>

#include <gtest/gtest.h>
#include <boost/describe.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <map>

namespace schematest {

enum class Unit { celsius, fahrenheit };
BOOST_DESCRIBE_ENUM(Unit, celsius, fahrenheit)

struct Point {
    double x;
    double y;
};
BOOST_DESCRIBE_STRUCT(Point, (), (x, y))

struct Query {
    std::string city;
    std::optional<Unit> unit;
    std::vector<Point> points;
    std::map<std::string, bool> flags;
    std::optional<unsigned> days;
};
BOOST_DESCRIBE_STRUCT(Query, (), (city, unit, points, flags, days))

inline void mcp_schema(mcp::json::SchemaHints<Query>& h) {
    h.description("A forecast query");
    h.field(&Query::city).description("City name").min_length(1).max_length(80);
    h.field(&Query::days).minimum(1).maximum(14);
}

struct Tree {
    std::string label;
    std::vector<Tree> children;
};
BOOST_DESCRIBE_STRUCT(Tree, (), (label, children))

struct Forest {
    std::vector<Tree> trees;
};
BOOST_DESCRIBE_STRUCT(Forest, (), (trees))

struct Partial {
    int shown;
    int hidden;
};
BOOST_DESCRIBE_STRUCT(Partial, (), (shown))

}  // namespace schematest

using namespace schematest;

TEST(JsonSchema, GeneratesObjectSchemaWithRequiredAndHints) {
    const auto schema = mcp::json::schema_of<Query>();
    const auto expected = boost::json::parse(R"({
      "type":"object",
      "properties":{
        "city":{"type":"string","description":"City name","minLength":1,"maxLength":80},
        "unit":{"type":"string","enum":["celsius","fahrenheit"]},
        "points":{"type":"array","items":{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["x","y"]}},
        "flags":{"type":"object","additionalProperties":{"type":"boolean"}},
        "days":{"type":"integer","minimum":1,"maximum":14}
      },
      "required":["city","points","flags"],
      "description":"A forecast query"})");
    EXPECT_EQ(boost::json::value(schema), expected) << boost::json::serialize(schema);
}

TEST(JsonSchema, RecursiveRootRefersToItself) {
    const auto schema = mcp::json::schema_of<Tree>();
    EXPECT_EQ(boost::json::serialize(schema.at("properties").at("children")),
              R"({"type":"array","items":{"$ref":"#"}})");
    EXPECT_FALSE(schema.contains("$defs"));
}

TEST(JsonSchema, NestedRecursionMovesToDefs) {
    const auto schema = mcp::json::schema_of<Forest>();
    EXPECT_EQ(boost::json::serialize(schema.at("properties").at("trees").at("items")), R"({"$ref":"#/$defs/Tree"})");
    const auto& tree = schema.at("$defs").at("Tree");
    EXPECT_EQ(boost::json::serialize(tree.at("properties").at("children").at("items")), R"({"$ref":"#/$defs/Tree"})");
}

TEST(JsonSchema, ScalarsAndContainers) {
    EXPECT_EQ(boost::json::serialize(mcp::json::schema_of<std::vector<int>>()),
              R"({"type":"array","items":{"type":"integer"}})");
    EXPECT_EQ(boost::json::serialize(mcp::json::schema_of<std::set<std::string>>()),
              R"({"type":"array","items":{"type":"string"},"uniqueItems":true})");
    EXPECT_EQ(boost::json::serialize(mcp::json::schema_of<unsigned>()), R"({"type":"integer","minimum":0})");
    EXPECT_EQ(boost::json::serialize(mcp::json::schema_of<std::optional<bool>>()),
              R"({"anyOf":[{"type":"boolean"},{"type":"null"}]})");
    EXPECT_EQ(boost::json::serialize(mcp::json::schema_of<boost::json::value>()), "{}");
}

TEST(JsonSchema, HintForUndescribedMemberIsRefused) {
    mcp::json::SchemaHints<Partial> h;
    EXPECT_NO_THROW(h.field(&Partial::shown));
    EXPECT_EQ(&h.field(&Partial::shown), &h.field(&Partial::shown));  // one entry per field
    EXPECT_THROW(h.field(&Partial::hidden), std::invalid_argument);
}
