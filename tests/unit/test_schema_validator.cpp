#include "mcp/json/schema_validator.hpp"

#include <gtest/gtest.h>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace bj = boost::json;
using mcp::json::SchemaValidator;
using mcp::json::ValidationError;

SchemaValidator compile(std::string_view schema) { return SchemaValidator(bj::parse(schema)); }

bool valid(const SchemaValidator& v, std::string_view instance) { return !v.validate(bj::parse(instance)); }

// The first error for `instance`; fails the test when there is none.
ValidationError error_of(const SchemaValidator& v, std::string_view instance) {
    auto e = v.validate(bj::parse(instance));
    EXPECT_TRUE(e.has_value()) << "expected " << instance << " to be invalid";
    return e.value_or(ValidationError{});
}

bool has(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

// The std::invalid_argument message of compiling `schema`, or "" when it compiles.
std::string schema_error(std::string_view schema) {
    try {
        compile(schema);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

// ----- type, enum, const ------------------------------------------------------------------------

TEST(SchemaType, EachTypeName) {
    struct Case {
        const char* type;
        const char* accepted;
        const char* rejected;
    };
    const Case cases[] = {
        {"null", "null", "0"},      {"boolean", "true", "\"true\""}, {"object", "{}", "[]"},   {"array", "[]", "{}"},
        {"number", "1.5", "\"1\""}, {"string", "\"x\"", "null"},     {"integer", "-7", "7.5"},
    };
    for (const auto& c : cases) {
        const auto v = compile(std::string(R"({"type":")") + c.type + "\"}");
        EXPECT_TRUE(valid(v, c.accepted)) << c.type;
        EXPECT_FALSE(valid(v, c.rejected)) << c.type;
    }
}

TEST(SchemaType, IntegerAcceptsIntegralNumbers) {
    const auto v = compile(R"({"type":"integer"})");
    EXPECT_TRUE(valid(v, "3"));
    EXPECT_TRUE(valid(v, "3.0"));
    EXPECT_TRUE(valid(v, "-0.0"));
    EXPECT_TRUE(valid(v, "18446744073709551615"));
    EXPECT_TRUE(valid(v, "1e300"));
    EXPECT_FALSE(valid(v, "3.5"));
    EXPECT_TRUE(valid(compile(R"({"type":"number"})"), "3"));
}

TEST(SchemaType, ArrayOfTypesAndMessage) {
    const auto v = compile(R"({"type":["string","null"]})");
    EXPECT_TRUE(valid(v, "\"a\""));
    EXPECT_TRUE(valid(v, "null"));
    const auto e = error_of(v, "12");
    EXPECT_EQ(e.instance_path, "");
    EXPECT_EQ(e.keyword, "type");
    EXPECT_EQ(e.message, "/: expected string or null, got integer");
}

TEST(SchemaType, NestedPathInMessage) {
    const auto v = compile(R"({"properties":{"address":{"properties":{"city":{"type":"string"}}}}})");
    const auto e = error_of(v, R"({"address":{"city":12}})");
    EXPECT_EQ(e.instance_path, "/address/city");
    EXPECT_EQ(e.message, "/address/city: expected string, got integer");
}

TEST(SchemaEnum, MembershipUsesJsonEquality) {
    const auto v = compile(R"({"enum":[1,"a",{"k":[1,2]},null]})");
    EXPECT_TRUE(valid(v, "1.0"));
    EXPECT_TRUE(valid(v, "\"a\""));
    EXPECT_TRUE(valid(v, R"({"k":[1.0,2]})"));
    EXPECT_TRUE(valid(v, "null"));
    EXPECT_FALSE(valid(v, "true"));
    EXPECT_FALSE(valid(v, R"({"k":[2,1]})"));
}

TEST(SchemaEnum, MessageNamesTheItem) {
    const auto v = compile(R"({"properties":{"tags":{"items":{"enum":["a","b"]}}}})");
    const auto e = error_of(v, R"({"tags":["a","b","c"]})");
    EXPECT_EQ(e.instance_path, "/tags/2");
    EXPECT_EQ(e.keyword, "enum");
    EXPECT_TRUE(e.message.starts_with("/tags/2: value not in enum")) << e.message;
}

TEST(SchemaConst, Equality) {
    const auto v = compile(R"({"const":{"a":1,"b":[true,null]}})");
    EXPECT_TRUE(valid(v, R"({"b":[true,null],"a":1.0})"));
    EXPECT_FALSE(valid(v, R"({"a":1,"b":[true,null],"c":0})"));
    EXPECT_FALSE(valid(v, R"({"a":1,"b":[1,null]})"));
    EXPECT_FALSE(valid(compile(R"({"const":false})"), "0"));
    EXPECT_TRUE(valid(compile(R"({"const":1})"), "1.0"));
    EXPECT_EQ(error_of(compile(R"({"const":"x"})"), "\"y\"").keyword, "const");
}

// ----- numbers ----------------------------------------------------------------------------------

TEST(SchemaNumber, Bounds) {
    const auto v = compile(R"({"minimum":1,"maximum":10})");
    EXPECT_TRUE(valid(v, "1"));
    EXPECT_TRUE(valid(v, "10.0"));
    EXPECT_FALSE(valid(v, "0.999"));
    EXPECT_FALSE(valid(v, "10.001"));
    EXPECT_TRUE(valid(v, "\"not a number\""));
    const auto e = error_of(v, "11");
    EXPECT_EQ(e.keyword, "maximum");
    EXPECT_EQ(e.message, "/: 11 is greater than maximum 10");

    const auto x = compile(R"({"exclusiveMinimum":1,"exclusiveMaximum":2.5})");
    EXPECT_TRUE(valid(x, "1.0000001"));
    EXPECT_FALSE(valid(x, "1"));
    EXPECT_FALSE(valid(x, "2.5"));
    EXPECT_EQ(error_of(x, "1").keyword, "exclusiveMinimum");
    EXPECT_EQ(error_of(x, "3").keyword, "exclusiveMaximum");
}

TEST(SchemaNumber, ExactComparisonAcrossRepresentations) {
    const auto v = compile(R"({"maximum":9007199254740993})");  // 2^53 + 1, not a double
    EXPECT_TRUE(valid(v, "9007199254740993"));
    EXPECT_FALSE(valid(v, "9007199254740994"));
    EXPECT_FALSE(valid(v, "9007199254740994.0"));
    EXPECT_TRUE(valid(compile(R"({"minimum":-18446744073709551615})"), "-9223372036854775808"));
    EXPECT_FALSE(valid(compile(R"({"maximum":-1})"), "18446744073709551615"));
    EXPECT_TRUE(valid(compile(R"({"exclusiveMaximum":18446744073709551615})"), "18446744073709551614"));
}

TEST(SchemaNumber, MultipleOf) {
    const auto ints = compile(R"({"multipleOf":3})");
    EXPECT_TRUE(valid(ints, "9"));
    EXPECT_TRUE(valid(ints, "-9"));
    EXPECT_TRUE(valid(ints, "9.0"));
    EXPECT_TRUE(valid(ints, "0"));
    EXPECT_FALSE(valid(ints, "10"));
    EXPECT_FALSE(valid(ints, "9.5"));
    EXPECT_EQ(error_of(ints, "10").message, "/: 10 is not a multiple of 3");
    const auto cents = compile(R"({"multipleOf":0.01})");
    EXPECT_TRUE(valid(cents, "19.99"));
    EXPECT_TRUE(valid(cents, "0.3"));
    EXPECT_FALSE(valid(cents, "19.995"));
    EXPECT_TRUE(valid(compile(R"({"multipleOf":1.5})"), "4.5"));
    EXPECT_TRUE(valid(compile(R"({"multipleOf":7})"), "-9223372036854775807"));
    EXPECT_FALSE(valid(compile(R"({"multipleOf":0.123456789})"), "1e308"));
}

// ----- strings ----------------------------------------------------------------------------------

TEST(SchemaString, LengthCountsCodePoints) {
    const auto v = compile(R"({"minLength":2,"maxLength":3})");
    EXPECT_TRUE(valid(v, "\"h\u00e9\""));               // 2 code points, 3 bytes
    EXPECT_TRUE(valid(v, "\"\U0001F600\U0001F600\""));  // 2 code points, 8 bytes
    EXPECT_FALSE(valid(v, "\"\U0001F600\""));
    EXPECT_FALSE(valid(v, "\"abcd\""));
    EXPECT_TRUE(valid(v, "42"));
    EXPECT_EQ(error_of(v, "\"a\"").message, "/: string has 1 characters, fewer than minLength 2");
    EXPECT_EQ(error_of(v, "\"abcd\"").keyword, "maxLength");
}

TEST(SchemaString, PatternIsUnanchoredEcmaScript) {
    const auto v = compile(R"({"pattern":"[0-9]{3}"})");
    EXPECT_TRUE(valid(v, "\"ab123cd\""));
    EXPECT_FALSE(valid(v, "\"ab12cd\""));
    const auto e = error_of(v, "\"x\"");
    EXPECT_EQ(e.keyword, "pattern");
    EXPECT_EQ(e.message, R"(/: string does not match pattern "[0-9]{3}")");

    const auto anchored = compile(R"({"pattern":"^[a-z]+$"})");
    EXPECT_TRUE(valid(anchored, "\"abc\""));
    EXPECT_FALSE(valid(anchored, "\"abc\\n\""));   // $ does not match before a trailing newline
    EXPECT_FALSE(valid(anchored, "\"x\\nabc\""));  // ^ does not match after a newline
    EXPECT_FALSE(valid(compile(R"({"pattern":"^a.c$"})"), "\"a\\nc\""));
}

TEST(SchemaString, PatternWorksOnCodePoints) {
    EXPECT_TRUE(valid(compile(R"({"pattern":"^.$"})"), "\"\u00e9\""));
    EXPECT_TRUE(valid(compile(R"({"pattern":"^.$"})"), "\"\U0001F600\""));
    EXPECT_TRUE(valid(compile(R"({"pattern":"^\\u00e9$"})"), "\"\u00e9\""));
    EXPECT_TRUE(valid(compile(R"({"pattern":"^\\ud83d\\ude00$"})"), "\"\U0001F600\""));
    EXPECT_TRUE(valid(compile(R"({"pattern":"^[\u00e0-\u00ff]+$"})"), "\"\u00e9\u00e8\""));
    EXPECT_FALSE(valid(compile(R"({"pattern":"^\\d$"})"), "\"\u0663\""));  // ASCII digits only
}

TEST(SchemaString, PatternBackreferencesAndLongStrings) {
    const auto backref = compile(R"({"pattern":"^(a|b)\\1$"})");
    EXPECT_TRUE(valid(backref, "\"aa\""));
    EXPECT_FALSE(valid(backref, "\"ab\""));
    EXPECT_TRUE(valid(compile(R"({"pattern":"^(?<x>a|b)\\k<x>$"})"), "\"bb\""));
    // A repeated group over a long string stays within the engine's backtracking bounds.
    const auto base64 = compile(R"({"pattern":"^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"})");
    EXPECT_FALSE(base64.validate(bj::value(std::string(1 << 20, 'Q'))));
    EXPECT_TRUE(base64.validate(bj::value(std::string(1 << 20, 'Q') + "!")));
}

// ----- arrays -----------------------------------------------------------------------------------

TEST(SchemaArray, ItemCounts) {
    const auto v = compile(R"({"minItems":1,"maxItems":2})");
    EXPECT_TRUE(valid(v, "[1]"));
    EXPECT_FALSE(valid(v, "[]"));
    EXPECT_FALSE(valid(v, "[1,2,3]"));
    EXPECT_EQ(error_of(v, "[]").message, "/: array has 0 items, fewer than minItems 1");
    EXPECT_EQ(error_of(v, "[1,2,3]").keyword, "maxItems");
}

TEST(SchemaArray, UniqueItemsUsesJsonEquality) {
    const auto v = compile(R"({"uniqueItems":true})");
    EXPECT_TRUE(valid(v, R"([1,"1",true,null,[1],{"a":1}])"));
    EXPECT_FALSE(valid(v, "[1,2,1.0]"));
    EXPECT_FALSE(valid(v, R"([{"a":1,"b":2},{"b":2,"a":1}])"));
    EXPECT_TRUE(valid(v, "[0,false]"));
    EXPECT_TRUE(valid(compile(R"({"uniqueItems":false})"), "[1,1]"));
    const auto e = error_of(v, "[1,2,1.0]");
    EXPECT_EQ(e.keyword, "uniqueItems");
    EXPECT_EQ(e.message, "/: items 0 and 2 are equal (uniqueItems)");
}

TEST(SchemaArray, UniqueItemsOnLargeArrays) {
    const auto v = compile(R"({"uniqueItems":true})");
    bj::array items;
    for (int i = 0; i < 200000; ++i) items.emplace_back(i);
    const auto start = std::chrono::steady_clock::now();
    EXPECT_FALSE(v.validate(items));
    items.emplace_back(bj::object{{"k", 1}});
    items.emplace_back(123456.0);
    const auto e = v.validate(items);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->message, "/: items 123456 and 200001 are equal (uniqueItems)");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(SchemaArray, PrefixItemsThenItems) {
    const auto v = compile(R"({"prefixItems":[{"type":"string"},{"type":"integer"}],"items":{"type":"boolean"}})");
    EXPECT_TRUE(valid(v, "[]"));
    EXPECT_TRUE(valid(v, R"(["a"])"));
    EXPECT_TRUE(valid(v, R"(["a",1,true,false])"));
    EXPECT_FALSE(valid(v, R"([1])"));
    const auto e = error_of(v, R"(["a",1,true,"x"])");
    EXPECT_EQ(e.instance_path, "/3");
    EXPECT_EQ(e.message, "/3: expected boolean, got string");

    const auto closed = compile(R"({"prefixItems":[{"type":"integer"}],"items":false})");
    EXPECT_TRUE(valid(closed, "[1]"));
    EXPECT_EQ(error_of(closed, "[1,2]").message, "/: array has 2 items, at most 1 allowed");
    EXPECT_TRUE(valid(compile(R"({"items":{"type":"integer"}})"), "[1,2,3]"));
    EXPECT_FALSE(valid(compile(R"({"items":{"type":"integer"}})"), "[1,\"2\"]"));
}

TEST(SchemaArray, ContainsWithMinAndMax) {
    const auto v = compile(R"({"contains":{"type":"integer"}})");
    EXPECT_TRUE(valid(v, R"(["a",1])"));
    EXPECT_FALSE(valid(v, R"(["a"])"));
    EXPECT_FALSE(valid(v, "[]"));
    EXPECT_EQ(error_of(v, "[]").keyword, "contains");

    const auto range = compile(R"({"contains":{"const":1},"minContains":2,"maxContains":3})");
    EXPECT_FALSE(valid(range, "[1,2]"));
    EXPECT_TRUE(valid(range, "[1,1,2]"));
    EXPECT_TRUE(valid(range, "[1,1,1]"));
    EXPECT_FALSE(valid(range, "[1,1,1,1]"));
    EXPECT_EQ(error_of(range, "[1]").keyword, "minContains");
    EXPECT_EQ(error_of(range, "[1,1,1,1]").keyword, "maxContains");

    EXPECT_TRUE(valid(compile(R"({"contains":{"const":1},"minContains":0})"), "[2]"));
    EXPECT_TRUE(valid(compile(R"({"minContains":5})"), "[]"));  // ignored without contains
}

// ----- objects ----------------------------------------------------------------------------------

TEST(SchemaObject, RequiredAndMessage) {
    const auto v = compile(R"({"required":["name","age"]})");
    EXPECT_TRUE(valid(v, R"({"name":"x","age":1})"));
    EXPECT_TRUE(valid(v, "[]"));
    const auto e = error_of(v, R"({"age":1})");
    EXPECT_EQ(e.instance_path, "");
    EXPECT_EQ(e.keyword, "required");
    EXPECT_EQ(e.message, R"(/: missing required property "name")");
}

TEST(SchemaObject, PropertyCounts) {
    const auto v = compile(R"({"minProperties":1,"maxProperties":2})");
    EXPECT_TRUE(valid(v, R"({"a":1})"));
    EXPECT_FALSE(valid(v, "{}"));
    EXPECT_FALSE(valid(v, R"({"a":1,"b":2,"c":3})"));
    EXPECT_EQ(error_of(v, "{}").keyword, "minProperties");
    EXPECT_EQ(error_of(v, R"({"a":1,"b":2,"c":3})").keyword, "maxProperties");
}

TEST(SchemaObject, DependentRequiredAndSchemas) {
    const auto v = compile(R"({"dependentRequired":{"card":["billing"]},
                               "dependentSchemas":{"gift":{"required":["message"]}}})");
    EXPECT_TRUE(valid(v, "{}"));
    EXPECT_TRUE(valid(v, R"({"card":1,"billing":2})"));
    EXPECT_TRUE(valid(v, R"({"billing":2})"));
    const auto e = error_of(v, R"({"card":1})");
    EXPECT_EQ(e.keyword, "dependentRequired");
    EXPECT_EQ(e.message, R"(/: property "billing" is required when "card" is present)");
    EXPECT_EQ(error_of(v, R"({"gift":true})").message, R"(/: missing required property "message")");
}

TEST(SchemaObject, PropertiesPatternPropertiesAdditionalProperties) {
    const auto v = compile(R"({"properties":{"id":{"type":"integer"}},
                               "patternProperties":{"^x-":{"type":"string"}},
                               "additionalProperties":{"type":"boolean"}})");
    EXPECT_TRUE(valid(v, R"({"id":1,"x-a":"s","flag":true})"));
    EXPECT_FALSE(valid(v, R"({"id":"1"})"));
    EXPECT_FALSE(valid(v, R"({"x-a":1})"));
    EXPECT_FALSE(valid(v, R"({"flag":1})"));
    EXPECT_EQ(error_of(v, R"({"other":1})").instance_path, "/other");

    const auto closed =
        compile(R"({"properties":{"a":{}},"patternProperties":{"^b":{}},"additionalProperties":false})");
    EXPECT_TRUE(valid(closed, R"({"a":1,"bee":2})"));
    const auto e = error_of(closed, R"({"a":1,"c/d":2})");
    EXPECT_EQ(e.instance_path, "/c~1d");
    EXPECT_EQ(e.keyword, "additionalProperties");
    EXPECT_EQ(e.message, "/c~1d: additional property is not allowed");
}

TEST(SchemaObject, PatternPropertiesAndPropertiesBothApply) {
    const auto v = compile(R"({"properties":{"ab":{"minimum":5}},"patternProperties":{"a":{"maximum":7}}})");
    EXPECT_TRUE(valid(v, R"({"ab":6})"));
    EXPECT_FALSE(valid(v, R"({"ab":4})"));
    EXPECT_FALSE(valid(v, R"({"ab":8})"));
}

TEST(SchemaObject, PropertyNames) {
    const auto v = compile(R"({"propertyNames":{"pattern":"^[a-z]+$","maxLength":3}})");
    EXPECT_TRUE(valid(v, R"({"ab":1,"xyz":2})"));
    EXPECT_FALSE(valid(v, R"({"abcd":1})"));
    const auto e = error_of(v, R"({"ok":1,"Bad":2})");
    EXPECT_EQ(e.keyword, "propertyNames");
    EXPECT_EQ(e.message, R"(/: property name "Bad" does not match the propertyNames schema)");
    std::string long_names = "{";
    for (int i = 0; i < 50; ++i) long_names += (i ? ",\"" : "\"") + std::string(300, 'a') + std::to_string(i) + "\":1";
    long_names += "}";
    EXPECT_FALSE(valid(v, long_names));
    EXPECT_TRUE(valid(compile(R"({"propertyNames":{"maxLength":400}})"), long_names));
}

// ----- applicators ------------------------------------------------------------------------------

TEST(SchemaApplicator, AllOfAnyOfOneOfNot) {
    const auto all = compile(R"({"allOf":[{"type":"integer"},{"minimum":3}]})");
    EXPECT_TRUE(valid(all, "3"));
    EXPECT_FALSE(valid(all, "2"));
    EXPECT_EQ(error_of(all, "2").keyword, "minimum");

    const auto any = compile(R"({"anyOf":[{"type":"string"},{"minimum":3}]})");
    EXPECT_TRUE(valid(any, "\"a\""));
    EXPECT_TRUE(valid(any, "4"));
    const auto e = error_of(any, "1");
    EXPECT_EQ(e.keyword, "anyOf");
    EXPECT_EQ(e.message,
              "/: value does not match any anyOf alternative: [0] /: expected string, got integer; "
              "[1] /: 1 is less than minimum 3");

    const auto one = compile(R"({"oneOf":[{"type":"integer"},{"minimum":2}]})");
    EXPECT_TRUE(valid(one, "1"));
    EXPECT_TRUE(valid(one, "2.5"));
    EXPECT_FALSE(valid(one, "3"));
    EXPECT_FALSE(valid(one, "1.5"));
    EXPECT_EQ(error_of(one, "3").message, "/: value matches more than one oneOf alternative ([0] and [1])");

    const auto negation = compile(R"({"not":{"type":"string"}})");
    EXPECT_TRUE(valid(negation, "1"));
    EXPECT_EQ(error_of(negation, "\"s\"").keyword, "not");
}

TEST(SchemaApplicator, IfThenElse) {
    const auto v = compile(R"({"if":{"minimum":10},"then":{"multipleOf":5},"else":{"multipleOf":2}})");
    EXPECT_TRUE(valid(v, "15"));
    EXPECT_FALSE(valid(v, "11"));
    EXPECT_TRUE(valid(v, "4"));
    EXPECT_FALSE(valid(v, "3"));
    EXPECT_TRUE(valid(compile(R"({"then":false})"), "1"));  // then/else without if are ignored
    EXPECT_TRUE(valid(compile(R"({"if":true,"else":false})"), "1"));
}

TEST(SchemaApplicator, BooleanSchemas) {
    EXPECT_TRUE(valid(compile("true"), R"({"anything":[1]})"));
    const auto no = compile("false");
    const auto e = error_of(no, "1");
    EXPECT_EQ(e.keyword, "false");
    EXPECT_EQ(e.message, "/: no value is allowed here (schema is false)");
    const auto v = compile(R"({"properties":{"a":true,"b":false},"items":true})");
    EXPECT_TRUE(valid(v, R"({"a":1})"));
    EXPECT_EQ(error_of(v, R"({"b":1})").instance_path, "/b");
    EXPECT_TRUE(valid(compile(R"({"anyOf":[false,true]})"), "1"));
    EXPECT_FALSE(valid(compile(R"({"allOf":[true,false]})"), "1"));
    EXPECT_TRUE(valid(compile(R"({"not":false})"), "1"));
}

// ----- $ref -------------------------------------------------------------------------------------

TEST(SchemaRef, DefsPointerAnchorAndRoot) {
    const auto v = compile(R"({
        "$defs":{"pos":{"$anchor":"positive","type":"integer","exclusiveMinimum":0},
                 "name":{"type":"string"}},
        "properties":{"a":{"$ref":"#/$defs/pos"},"b":{"$ref":"#positive"},"c":{"$ref":"#/$defs/name"},
                      "self":{"$ref":"#"}}})");
    EXPECT_TRUE(valid(v, R"({"a":1,"b":2,"c":"x","self":{"a":3,"self":{}}})"));
    EXPECT_EQ(error_of(v, R"({"a":0})").instance_path, "/a");
    EXPECT_EQ(error_of(v, R"({"b":-1})").keyword, "exclusiveMinimum");
    EXPECT_EQ(error_of(v, R"({"self":{"self":{"c":1}}})").message, "/self/self/c: expected string, got integer");
}

TEST(SchemaRef, PointerEscapes) {
    const auto v = compile(R"({"$defs":{"a/b":{"type":"integer"},"c~d":{"type":"string"},"e%f":{"type":"null"}},
                               "properties":{"x":{"$ref":"#/$defs/a~1b"},"y":{"$ref":"#/$defs/c~0d"},
                                             "z":{"$ref":"#/$defs/e%25f"}}})");
    EXPECT_TRUE(valid(v, R"({"x":1,"y":"s","z":null})"));
    EXPECT_FALSE(valid(v, R"({"x":"1"})"));
    EXPECT_FALSE(valid(v, R"({"y":1})"));
    EXPECT_FALSE(valid(v, R"({"z":1})"));
}

TEST(SchemaRef, PointerIntoNonKeywordLocations) {
    // Draft-07 style "definitions" and array elements are reachable by JSON Pointer.
    const auto v = compile(R"({"definitions":{"n":{"type":"number"}},"x-list":[{"type":"string"}],
                               "properties":{"a":{"$ref":"#/definitions/n"},"b":{"$ref":"#/x-list/0"}}})");
    EXPECT_TRUE(valid(v, R"({"a":1,"b":"s"})"));
    EXPECT_FALSE(valid(v, R"({"a":"1"})"));
    EXPECT_FALSE(valid(v, R"({"b":1})"));
    EXPECT_FALSE(
        valid(compile(R"({"properties":{"a":{"$ref":"#/definitions/n"}},"definitions":{"n":false}})"), R"({"a":1})"));
}

TEST(SchemaRef, SiblingsAreApplied) {
    const auto v = compile(R"({"$defs":{"arr":{"type":"array"}},"$ref":"#/$defs/arr","maxItems":2})");
    EXPECT_TRUE(valid(v, "[1,2]"));
    EXPECT_FALSE(valid(v, "[1,2,3]"));
    EXPECT_FALSE(valid(v, "{}"));
}

TEST(SchemaRef, EmbeddedResourcesAndRemoteRefs) {
    const auto v = compile(R"({"$id":"https://example.com/root",
        "$defs":{"inner":{"$id":"https://example.com/inner","$defs":{"s":{"type":"string"}},"$ref":"#/$defs/s"}},
        "properties":{"a":{"$ref":"https://example.com/inner"},
                      "b":{"$ref":"https://example.com/root#/$defs/inner/$defs/s"},
                      "remote":{"$ref":"https://other.example/schema.json#/$defs/x","type":"integer"}}})");
    EXPECT_TRUE(valid(v, R"({"a":"s","b":"t"})"));
    EXPECT_FALSE(valid(v, R"({"a":1})"));
    EXPECT_FALSE(valid(v, R"({"b":1})"));
    // The remote $ref is accepted and not enforced; its siblings are.
    EXPECT_TRUE(valid(v, R"({"remote":1})"));
    EXPECT_FALSE(valid(v, R"({"remote":"x"})"));
}

TEST(SchemaRef, RecursiveTree) {
    const auto v = compile(R"({"$defs":{"node":{"type":"object","required":["value"],
        "properties":{"value":{"type":"integer"},"children":{"type":"array","items":{"$ref":"#/$defs/node"}}}}},
        "$ref":"#/$defs/node"})");
    EXPECT_TRUE(valid(v, R"({"value":1,"children":[{"value":2},{"value":3,"children":[]}]})"));
    const auto e = error_of(v, R"({"value":1,"children":[{"value":2},{"value":3,"children":[{}]}]})");
    EXPECT_EQ(e.message, R"(/children/1/children/0: missing required property "value")");
}

// ----- the MCP conformance schema ---------------------------------------------------------------

constexpr const char* kConformanceSchema = R"({"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
 "$defs":{"address":{"$anchor":"addressDef","type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},
 "properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},"contactMethod":{"type":"string","enum":["phone","email"]},
   "phone":{"type":"string"},"email":{"type":"string"}},
 "allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],
 "if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},
 "then":{"required":["phone"]},"else":{"required":["email"]},"additionalProperties":false})";

TEST(SchemaConformance, McpConformanceSchema) {
    const auto v = compile(kConformanceSchema);
    EXPECT_TRUE(valid(v, R"({"name":"Ann","contactMethod":"phone","phone":"555"})"));
    EXPECT_TRUE(valid(v, R"({"name":"Ann","email":"a@b.c","address":{"street":"Main","city":"X"}})"));
    EXPECT_TRUE(valid(v, R"({"contactMethod":"email","email":"a@b.c","phone":"555"})"));

    EXPECT_EQ(error_of(v, R"({"name":"Ann"})").keyword, "anyOf");
    const auto no_phone = error_of(v, R"({"contactMethod":"phone","email":"a@b.c"})");
    EXPECT_EQ(no_phone.keyword, "required");
    EXPECT_EQ(no_phone.message, R"(/: missing required property "phone")");
    EXPECT_EQ(error_of(v, R"({"phone":"555"})").message, R"(/: missing required property "email")");
    EXPECT_EQ(error_of(v, R"({"email":"a@b.c","address":{"city":12}})").message,
              "/address/city: expected string, got integer");
    EXPECT_EQ(error_of(v, R"({"email":"a@b.c","contactMethod":"fax"})").instance_path, "/contactMethod");
    EXPECT_EQ(error_of(v, R"({"email":"a@b.c","age":3})").message, "/age: additional property is not allowed");
    EXPECT_EQ(error_of(v, "[]").message, "/: expected object, got array");

    const auto all = v.validate_all(bj::parse(R"({"name":1,"address":{"city":2},"age":3})"));
    std::vector<std::string> messages;
    messages.reserve(all.size());
    for (const auto& e : all) messages.push_back(e.message);
    const std::vector<std::string> expected = {
        "/name: expected string, got integer",
        "/address/city: expected string, got integer",
        "/age: additional property is not allowed",
        "/: value does not match any anyOf alternative: [0] /: missing required property \"phone\"; "
        "[1] /: missing required property \"email\"",
        "/: missing required property \"email\"",
    };
    EXPECT_EQ(messages, expected);
}

// ----- validate_all, keywords that are not enforced, API ------------------------------------------

TEST(SchemaValidateAll, CollectsUpToMaxErrors) {
    const auto v = compile(R"({"items":{"type":"string"}})");
    EXPECT_TRUE(v.validate_all(bj::parse(R"(["a","b"])")).empty());
    const auto instance = bj::parse("[1,2,3,4,5]");
    EXPECT_EQ(v.validate_all(instance).size(), 5u);
    const auto two = v.validate_all(instance, 2);
    ASSERT_EQ(two.size(), 2u);
    EXPECT_EQ(two[0].instance_path, "/0");
    EXPECT_EQ(two[1].instance_path, "/1");
    EXPECT_TRUE(v.validate_all(instance, 0).empty());
}

TEST(SchemaNotEnforced, AcceptedAndIgnored) {
    const auto v = compile(R"({"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"urn:example:x",
        "$comment":"c","title":"t","description":"d","default":5,"examples":[1],"deprecated":true,
        "readOnly":true,"writeOnly":false,"format":"email","contentMediaType":"application/json",
        "contentEncoding":"base64","contentSchema":{"type":"object"},"unevaluatedProperties":false,
        "unevaluatedItems":false,"$dynamicAnchor":"meta","$vocabulary":{},"x-vendor":{"type":"nonsense"},
        "properties":{"d":{"$dynamicRef":"#meta"}},"dependencies":{"a":["b"]},"additionalItems":false})");
    EXPECT_TRUE(valid(v, "\"not an email\""));
    EXPECT_TRUE(valid(v, R"({"extra":1,"a":1})"));
    EXPECT_TRUE(valid(v, "[1,2]"));
}

TEST(SchemaApi, EnforcedKeywordsSorted) {
    const auto& k = SchemaValidator::enforced_keywords();
    EXPECT_TRUE(std::is_sorted(k.begin(), k.end()));
    for (const char* name : {"type", "enum", "const", "$ref", "$defs", "prefixItems", "items", "minContains",
                             "dependentRequired", "propertyNames", "if", "then", "else", "uniqueItems"}) {
        EXPECT_NE(std::find(k.begin(), k.end(), name), k.end()) << name;
    }
    for (const char* name : {"format", "unevaluatedProperties", "$dynamicRef", "contentMediaType", "additionalItems"}) {
        EXPECT_EQ(std::find(k.begin(), k.end(), name), k.end()) << name;
    }
}

TEST(SchemaApi, MoveAndIndependenceFromSource) {
    auto schema = bj::parse(R"({"$defs":{"s":{"type":"string"}},"$ref":"#/$defs/s"})");
    SchemaValidator a(schema);
    schema = nullptr;  // the validator keeps its own copy
    SchemaValidator b = std::move(a);
    EXPECT_TRUE(valid(b, "\"x\""));
    SchemaValidator c(bj::parse("true"));
    c = std::move(b);
    EXPECT_FALSE(valid(c, "1"));
}

TEST(SchemaApi, ConcurrentValidation) {
    const auto v = compile(kConformanceSchema);
    std::vector<std::thread> threads;
    std::vector<int> failures(4, 0);
    threads.reserve(4);
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            const auto good = bj::parse(R"({"name":"Ann","contactMethod":"phone","phone":"555"})");
            const auto bad = bj::parse(R"({"email":"a@b.c","address":{"city":12}})");
            for (int i = 0; i < 2000; ++i) {
                if (v.validate(good)) ++failures[t];
                const auto e = v.validate(bad);
                if (!e || e->instance_path != "/address/city") ++failures[t];
            }
        });
    }
    for (auto& th : threads) th.join();
    EXPECT_EQ(failures, std::vector<int>(4, 0));
}

// ----- hostile schemas and instances ------------------------------------------------------------

TEST(SchemaHostile, RefCyclesEndWithAnError) {
    for (const char* schema : {
             R"({"$ref":"#"})",
             R"({"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"})",
             R"({"$defs":{"a":{"$anchor":"x","allOf":[{"$ref":"#x"}]}},"$ref":"#x"})",
             R"({"not":{"$ref":"#"}})",
             R"({"anyOf":[{"$ref":"#"}]})",
             R"({"if":{"$ref":"#"},"then":true})",
             R"({"properties":{"a":{"$ref":"#/properties/a"}}})",
         }) {
        const auto v = compile(schema);
        const std::string instance = has(schema, "properties") ? R"({"a":1})" : "1";
        const auto e = v.validate(bj::parse(instance));
        ASSERT_TRUE(e) << schema;
        EXPECT_EQ(e->keyword, "$ref") << schema;
        EXPECT_TRUE(has(e->message, "depth limit")) << e->message;
        EXPECT_FALSE(v.validate_all(bj::parse(instance)).empty());
    }
}

bj::value nested_arrays(std::size_t depth) {
    bj::value root = bj::array();
    bj::value* cur = &root;
    for (std::size_t i = 0; i < depth; ++i) {
        cur->get_array().emplace_back(bj::array());
        cur = &cur->get_array().back();
    }
    return root;
}

TEST(SchemaHostile, DeeplyNestedInstances) {
    const auto recursive = compile(R"({"type":"array","items":{"$ref":"#"}})");
    const auto shallow = compile(R"({"type":"array","items":{"type":"array"}})");
    // Within the evaluation depth limit (two schema applications per level here: items, then
    // $ref) a recursive schema validates the whole instance.
    EXPECT_FALSE(recursive.validate(nested_arrays(1000)));
    bj::parse_options options;
    options.max_depth = 1000;
    std::string text(1000, '[');
    text += std::string(1000, ']');
    EXPECT_FALSE(recursive.validate(bj::parse(text, {}, options)));
    const auto wrong = recursive.validate(bj::parse("[[[[1]]]]"));
    ASSERT_TRUE(wrong);
    EXPECT_EQ(wrong->message, "/0/0/0/0: expected array, got integer");
    // Deeper than that it reports an error instead of exhausting the stack.
    bj::array pair;
    pair.emplace_back(nested_arrays(20000));
    pair.emplace_back(nested_arrays(20000));
    const bj::value& deep = pair[0];
    const auto e = recursive.validate(deep);
    ASSERT_TRUE(e);
    EXPECT_TRUE(has(e->message, "depth limit")) << e->message;
    EXPECT_FALSE(shallow.validate(deep));
    // Equality (uniqueItems, enum, const) over deep values does not recurse on the call stack.
    EXPECT_TRUE(compile(R"({"uniqueItems":true})").validate(pair));
    bj::object enum_schema;
    enum_schema["enum"] = bj::array();
    enum_schema["enum"].as_array().emplace_back(nested_arrays(20000));
    EXPECT_FALSE(SchemaValidator(enum_schema).validate(deep));
}

TEST(SchemaHostile, ExponentialAlternativesHitTheStepLimit) {
    // oneOf has to try both branches at every level: 2^60 applications without the step limit.
    const auto v = compile(R"({"$defs":{"t":{"oneOf":[{"type":"array","items":{"$ref":"#/$defs/t"}},
                                                      {"type":"array","items":{"$ref":"#/$defs/t"}}]}},
                               "$ref":"#/$defs/t"})");
    const auto start = std::chrono::steady_clock::now();
    const auto e = v.validate(nested_arrays(60));
    ASSERT_TRUE(e);
    EXPECT_TRUE(has(e->message, "step limit")) << e->message;
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

TEST(SchemaHostile, CatastrophicBacktrackingIsAnError) {
    const auto v = compile(R"({"properties":{"s":{"pattern":"^(a+)+$"}}})");
    bj::object instance;
    instance["s"] = std::string(5000, 'a') + "!";
    const auto start = std::chrono::steady_clock::now();
    const auto e = v.validate(instance);
    const auto elapsed = std::chrono::steady_clock::now() - start;
    ASSERT_TRUE(e);
    EXPECT_EQ(e->keyword, "pattern");
    EXPECT_EQ(e->instance_path, "/s");
    EXPECT_TRUE(has(e->message, "too complex")) << e->message;
    EXPECT_LT(elapsed, std::chrono::seconds(5));
    EXPECT_TRUE(valid(v, R"({"s":"aaaa"})"));

    // Negating or alternating around it must not turn the failure into a success.
    const auto negated = compile(R"({"not":{"pattern":"^(a+)+$"}})");
    EXPECT_TRUE(negated.validate(instance["s"]));
    const auto keys = compile(R"({"patternProperties":{"^(a+)+$":true},"additionalProperties":false})");
    bj::object hostile_key;
    hostile_key[std::string(5000, 'a') + "!"] = 1;
    EXPECT_TRUE(keys.validate(hostile_key));
}

TEST(SchemaHostile, HugeArraysStayFast) {
    const auto v = compile(R"({"type":"array","items":{"type":"integer","minimum":0},"contains":{"const":-1},
                               "minContains":0,"maxItems":10000000})");
    bj::array items;
    for (int i = 0; i < 1000000; ++i) items.emplace_back(i);
    const auto start = std::chrono::steady_clock::now();
    EXPECT_FALSE(v.validate(items));
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(SchemaHostile, MalformedSchemasNameTheLocation) {
    struct Case {
        const char* schema;
        const char* message;
    };
    const Case cases[] = {
        {"42", "schema /: expected a schema (an object or a boolean)"},
        {R"({"properties":{"age":{"minimum":"0"}}})", "schema /properties/age/minimum: expected a number"},
        {R"({"type":"text"})", "schema /type: unknown type \"text\""},
        {R"({"type":[]})", "schema /type: expected a type name or a non-empty array of type names"},
        {R"({"type":["string",1]})", "schema /type: expected an array of strings"},
        {R"({"required":"name"})", "schema /required: expected an array of strings"},
        {R"({"required":[1]})", "schema /required: expected an array of strings"},
        {R"({"minLength":-1})", "schema /minLength: expected a non-negative integer"},
        {R"({"maxItems":1.5})", "schema /maxItems: expected a non-negative integer"},
        {R"({"multipleOf":0})", "schema /multipleOf: expected a number greater than 0"},
        {R"({"multipleOf":-2})", "schema /multipleOf: expected a number greater than 0"},
        {R"({"enum":"a"})", "schema /enum: expected an array"},
        {R"({"uniqueItems":"yes"})", "schema /uniqueItems: expected a boolean"},
        {R"({"pattern":"[a-"})", "schema /pattern: invalid regular expression \"[a-\""},
        {R"({"pattern":5})", "schema /pattern: expected a string"},
        {R"({"patternProperties":{"(":{}}})", "schema /patternProperties/(: invalid regular expression"},
        {R"({"properties":[]})", "schema /properties: expected an object of schemas"},
        {R"({"properties":{"a":1}})", "schema /properties/a: expected a schema"},
        {R"({"allOf":[]})", "schema /allOf: expected a non-empty array of schemas"},
        {R"({"anyOf":{}})", "schema /anyOf: expected a non-empty array of schemas"},
        {R"({"oneOf":[{},null]})", "schema /oneOf/1: expected a schema"},
        {R"({"items":[{}]})", "schema /items: expected a schema; the array form of items is prefixItems"},
        {R"({"not":"x"})", "schema /not: expected a schema"},
        {R"({"dependentRequired":{"a":"b"}})", "schema /dependentRequired/a: expected an array of strings"},
        {R"({"dependentSchemas":{"a":3}})", "schema /dependentSchemas/a: expected a schema"},
        {R"({"$defs":{"x":{"type":3}}})", "schema /$defs/x/type: expected a type name"},
        {R"({"$ref":5})", "schema /$ref: expected a string"},
        {R"({"$ref":"#/$defs/missing"})", "schema /$ref: cannot resolve \"#/$defs/missing\""},
        {R"({"$ref":"#nowhere"})", "schema /$ref: cannot resolve \"#nowhere\""},
        {R"({"$ref":"#/a~2b"})", "schema /$ref: invalid JSON Pointer escape in $ref"},
        {R"({"$ref":"#/%zz"})", "schema /$ref: invalid percent-encoding in $ref"},
        {R"({"a":1,"$ref":"#/a"})", "schema /$ref: \"#/a\" does not point to a schema"},
        {R"({"$defs":{"x":{"$ref":"#/$defs/y"},"y":{"$ref":"#/nope"}}})", "schema /$defs/y/$ref: cannot resolve"},
        {R"({"$anchor":"1bad"})", "schema /$anchor: expected an anchor name"},
        {R"({"$defs":{"a":{"$anchor":"x"},"b":{"$anchor":"x"}}})", "schema /$defs/b/$anchor: duplicate anchor \"x\""},
        {R"({"$id":7})", "schema /$id: expected a string"},
        {R"({"properties":{"a/b~c":{"maxLength":"3"}}})",
         "schema /properties/a~1b~0c/maxLength: expected a non-negative integer"},
    };
    for (const auto& c : cases) {
        const std::string error = schema_error(c.schema);
        EXPECT_TRUE(error.starts_with(c.message)) << c.schema << "\n  got: " << error;
    }
}

TEST(SchemaHostile, DeeplyNestedSchemaIsRejected) {
    auto nots = [](int n) {
        bj::value schema = true;
        for (int i = 0; i < n; ++i) {
            bj::object wrapper;
            wrapper["not"] = std::move(schema);
            schema = std::move(wrapper);
        }
        return schema;
    };
    const bj::value schema = nots(2000);
    const std::string error = [&] {
        try {
            SchemaValidator v(schema);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string();
    }();
    EXPECT_TRUE(has(error, "nested too deeply")) << error;
    EXPECT_FALSE(SchemaValidator(nots(200)).validate(1));  // an even number of nots around true
    EXPECT_TRUE(SchemaValidator(nots(201)).validate(1));
}

// ----- the official JSON-Schema-Test-Suite ------------------------------------------------------

// Files, or groups within a file ("file|group description"), whose draft-07 semantics differ from
// 2020-12 or which exercise keywords this validator does not enforce.
struct Skipped {
    const char* what;
    const char* reason;
};
constexpr Skipped kSkipped[] = {
    {"additionalItems.json", "additionalItems was replaced by items-after-prefixItems in 2020-12"},
    {"dependencies.json", "dependencies was split into dependentRequired/dependentSchemas in 2019-09"},
    {"definitions.json", "validates against the remote draft-07 meta-schema"},
    {"refRemote.json", "remote $refs are not enforced"},
    {"items.json|an array of schemas for items", "array-form items is prefixItems in 2020-12"},
    {"items.json|items with boolean schemas", "array-form items is prefixItems in 2020-12"},
    {"ref.json|relative pointer ref to array", "array-form items is prefixItems in 2020-12"},
    {"ref.json|ref overrides any sibling keywords", "draft-07 ignores $ref siblings, 2020-12 applies them"},
    {"ref.json|remote ref, containing refs itself", "remote $ref to the draft-07 meta-schema"},
    {"ref.json|Recursive references between schemas", "relative $id-based URI resolution (remote-style $refs)"},
    {"optional/content.json", "content* keywords are not enforced"},
    {"optional/ecmascript-regex.json", "tests format \"regex\"; format is not enforced"},
    {"optional/format/", "format is not enforced"},
};

const char* skip_reason(const std::string& file, const std::string& group) {
    for (const auto& s : kSkipped) {
        const std::string_view what = s.what;
        if (what == file || what == file + "|" + group || (what.ends_with('/') && file.starts_with(what))) {
            return s.reason;
        }
    }
    return nullptr;
}

TEST(OfficialSuite, Draft7CasesWithTheSameMeaningIn2020_12) {
    const std::filesystem::path dir = MCP_JSON_SCHEMA_TEST_SUITE_DIR;
    ASSERT_TRUE(std::filesystem::is_directory(dir))
        << dir << " is missing: install the Debian package json-schema-test-suite";
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
        if (entry.is_regular_file() && entry.path().extension() == ".json") {
            files.push_back(entry.path().lexically_relative(dir).generic_string());
        }
    }
    std::sort(files.begin(), files.end());
    std::size_t ran = 0, skipped = 0, ran_files = 0;
    for (const auto& file : files) {
        std::ifstream in(dir / file);
        std::stringstream text;
        text << in.rdbuf();
        const bj::value groups = bj::parse(text.str());
        bool any_ran = false;
        for (const auto& group : groups.as_array()) {
            const std::string description(group.at("description").as_string());
            const auto& tests = group.at("tests").as_array();
            if (skip_reason(file, description) != nullptr) {
                skipped += tests.size();
                continue;
            }
            std::optional<SchemaValidator> validator;
            try {
                validator.emplace(group.at("schema"));
            } catch (const std::exception& e) {
                ADD_FAILURE() << file << " | " << description << ": schema rejected: " << e.what();
                continue;
            }
            for (const auto& test : tests) {
                const bool expected = test.at("valid").as_bool();
                const auto error = validator->validate(test.at("data"));
                EXPECT_EQ(!error.has_value(), expected)
                    << file << " | " << description << " | " << test.at("description").as_string()
                    << "\n  data: " << bj::serialize(test.at("data")) << (error ? "\n  error: " + error->message : "");
                ++ran;
                any_ran = true;
            }
        }
        ran_files += any_ran;
    }
    std::cout << "[ suite    ] " << ran << " cases run from " << ran_files << " files, " << skipped
              << " cases skipped\n";
    RecordProperty("cases_run", static_cast<int>(ran));
    RecordProperty("cases_skipped", static_cast<int>(skipped));
    EXPECT_GT(ran, 300u);
}

}  // namespace
