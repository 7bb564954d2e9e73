#include <mcp/protocol/uri_template.hpp>

#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

using mcp::UriTemplate;
using mcp::UriVariables;

std::string parse_error(const std::string& text) {
    try {
        UriTemplate t(text);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "no error";
}

std::optional<UriVariables> match(const std::string& text, const std::string& uri) {
    return UriTemplate(text).match(uri);
}

// ---- Parsing ---------------------------------------------------------------------------------

TEST(UriTemplateParse, AcceptsValidTemplates) {
    const UriTemplate t("db://tables/{table}/rows{?limit,offset}{&x.y*}{/p%20q:3}");
    EXPECT_EQ(t.str(), "db://tables/{table}/rows{?limit,offset}{&x.y*}{/p%20q:3}");
    EXPECT_EQ(t.variables(), (std::vector<std::string>{"table", "limit", "offset", "x.y", "p%20q"}));
    EXPECT_FALSE(t.is_literal());

    const UriTemplate literal("docs://readme%20first");
    EXPECT_TRUE(literal.is_literal());
    EXPECT_TRUE(literal.variables().empty());
    EXPECT_TRUE(UriTemplate("").is_literal());
    EXPECT_NO_THROW(UriTemplate("{a:9999}{b:1}{_0.a_b}{+c}{#d}{.e}{/f}{;g}{?h}{&i}"));
    EXPECT_NO_THROW(UriTemplate("docs://\xC3\xA9t\xC3\xA9/{x}"));
}

TEST(UriTemplateParse, RejectsBraces) {
    EXPECT_EQ(parse_error("a{b"), "invalid URI template \"a{b\": unclosed '{' at offset 1");
    EXPECT_EQ(parse_error("{a{b}}"), "invalid URI template \"{a{b}}\": unclosed '{' at offset 0");
    EXPECT_EQ(parse_error("ab}"), "invalid URI template \"ab}\": '}' without '{' at offset 2");
    EXPECT_EQ(parse_error("{a}}"), "invalid URI template \"{a}}\": '}' without '{' at offset 3");
    EXPECT_EQ(parse_error("x{}"), "invalid URI template \"x{}\": empty expression at offset 1");
}

TEST(UriTemplateParse, RejectsBadNames) {
    EXPECT_EQ(parse_error("{a-b}"), "invalid URI template \"{a-b}\": invalid variable name 'a-b' at offset 1");
    for (const char* t : {"{a..b}", "{.a.}", "{..a}", "{a%2}", "{a%zz}", "{a b}", "{a~}", "{\xC3\xA9}", "{a*b}"}) {
        EXPECT_NE(parse_error(t).find("invalid variable name"), std::string::npos) << t;
    }
    for (const char* t : {"{+}", "{a,}", "{a,,b}", "{?}", "{*}", "{:3}"}) {
        EXPECT_NE(parse_error(t).find("missing variable name"), std::string::npos) << t;
    }
    EXPECT_EQ(parse_error("{x,+y}"), "invalid URI template \"{x,+y}\": invalid variable name '+y' at offset 3");
}

TEST(UriTemplateParse, RejectsReservedOperators) {
    for (char op : std::string("=,!@|")) {
        const std::string text = std::string("x{") + op + "a}";
        EXPECT_EQ(parse_error(text),
                  "invalid URI template \"" + text + "\": reserved operator '" + op + "' at offset 2");
    }
}

TEST(UriTemplateParse, RejectsBadModifiers) {
    EXPECT_EQ(parse_error("{a:0}"),
              "invalid URI template \"{a:0}\": invalid prefix modifier ':0' (want :1 to :9999) at offset 2");
    for (const char* t : {"{a:}", "{a:10000}", "{a:01}", "{a:x}", "{a:3*}", "{a:-1}"}) {
        EXPECT_NE(parse_error(t).find("invalid prefix modifier"), std::string::npos) << t;
    }
    EXPECT_NE(parse_error("{a*:3}").find("invalid variable name 'a*'"), std::string::npos);
    EXPECT_NE(parse_error("{a**}").find("invalid variable name 'a*'"), std::string::npos);
}

TEST(UriTemplateParse, RejectsDuplicateVariables) {
    EXPECT_EQ(parse_error("{a}/{a}"), "invalid URI template \"{a}/{a}\": variable 'a' used twice at offset 5");
    EXPECT_NE(parse_error("{a,b,a}").find("variable 'a' used twice"), std::string::npos);
    EXPECT_NE(parse_error("{?a}{&a*}").find("variable 'a' used twice"), std::string::npos);
    EXPECT_NE(parse_error("{/a}{.a:2}").find("variable 'a' used twice"), std::string::npos);
}

TEST(UriTemplateParse, RejectsBadLiterals) {
    EXPECT_EQ(parse_error("a b{x}"), "invalid URI template \"a b{x}\": byte 0x20 not allowed at offset 1");
    EXPECT_EQ(parse_error("a<b"), "invalid URI template \"a<b\": '<' not allowed at offset 1");
    EXPECT_EQ(parse_error("50%"), "invalid URI template \"50%\": '%' not followed by two hex digits at offset 2");
    EXPECT_NE(parse_error("x%4G").find("'%' not followed"), std::string::npos);
    EXPECT_NE(parse_error("x\xFFy").find("invalid UTF-8 at offset 1"), std::string::npos);
    EXPECT_NE(parse_error("x\xC3").find("truncated UTF-8"), std::string::npos);
}

// ---- Expansion: the RFC 6570 examples of levels 1-3 ------------------------------------------

struct Example {
    const char* text;
    const char* expected;
};

void expect_expansions(const UriVariables& values, std::initializer_list<Example> examples) {
    for (const auto& [text, expected] : examples) {
        EXPECT_EQ(UriTemplate(text).expand(values), expected) << text;
    }
}

TEST(UriTemplateExpand, Rfc6570Section1_2) {
    const UriVariables values{
        {"var", "value"}, {"hello", "Hello World!"}, {"path", "/foo/bar"}, {"empty", ""}, {"x", "1024"}, {"y", "768"}};
    expect_expansions(values, {
                                  // level 1
                                  {"{var}", "value"},
                                  {"{hello}", "Hello%20World%21"},
                                  // level 2
                                  {"{+var}", "value"},
                                  {"{+hello}", "Hello%20World!"},
                                  {"{+path}/here", "/foo/bar/here"},
                                  {"here?ref={+path}", "here?ref=/foo/bar"},
                                  {"X{#var}", "X#value"},
                                  {"X{#hello}", "X#Hello%20World!"},
                                  // level 3
                                  {"map?{x,y}", "map?1024,768"},
                                  {"{x,hello,y}", "1024,Hello%20World%21,768"},
                                  {"{+x,hello,y}", "1024,Hello%20World!,768"},
                                  {"{+path,x}/here", "/foo/bar,1024/here"},
                                  {"{#x,hello,y}", "#1024,Hello%20World!,768"},
                                  {"{#path,x}/here", "#/foo/bar,1024/here"},
                                  {"X{.var}", "X.value"},
                                  {"X{.x,y}", "X.1024.768"},
                                  {"{/var}", "/value"},
                                  {"{/var,x}/here", "/value/1024/here"},
                                  {"{;x,y}", ";x=1024;y=768"},
                                  {"{;x,y,empty}", ";x=1024;y=768;empty"},
                                  {"{?x,y}", "?x=1024&y=768"},
                                  {"{?x,y,empty}", "?x=1024&y=768&empty="},
                                  {"?fixed=yes{&x}", "?fixed=yes&x=1024"},
                                  {"{&x,y,empty}", "&x=1024&y=768&empty="},
                              });
}

TEST(UriTemplateExpand, Rfc6570Section3_2) {
    const UriVariables values{{"dub", "me/too"},    {"hello", "Hello World!"},
                              {"half", "50%"},      {"var", "value"},
                              {"who", "fred"},      {"base", "http://example.com/home/"},
                              {"path", "/foo/bar"}, {"v", "6"},
                              {"x", "1024"},        {"y", "768"},
                              {"empty", ""}};
    expect_expansions(values, {
                                  // 3.2.2 simple string expansion
                                  {"{var}", "value"},
                                  {"{hello}", "Hello%20World%21"},
                                  {"{half}", "50%25"},
                                  {"O{empty}X", "OX"},
                                  {"O{undef}X", "OX"},
                                  {"{x,y}", "1024,768"},
                                  {"{x,hello,y}", "1024,Hello%20World%21,768"},
                                  {"?{x,empty}", "?1024,"},
                                  {"?{x,undef}", "?1024"},
                                  {"?{undef,y}", "?768"},
                                  {"{var:3}", "val"},
                                  {"{var:30}", "value"},
                                  // 3.2.3 reserved expansion
                                  {"{+var}", "value"},
                                  {"{+hello}", "Hello%20World!"},
                                  {"{+half}", "50%25"},
                                  {"{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"},
                                  {"{+base}index", "http://example.com/home/index"},
                                  {"O{+empty}X", "OX"},
                                  {"O{+undef}X", "OX"},
                                  {"{+path}/here", "/foo/bar/here"},
                                  {"here?ref={+path}", "here?ref=/foo/bar"},
                                  {"up{+path}{var}/here", "up/foo/barvalue/here"},
                                  {"{+x,hello,y}", "1024,Hello%20World!,768"},
                                  {"{+path,x}/here", "/foo/bar,1024/here"},
                                  {"{+path:6}/here", "/foo/b/here"},
                                  // 3.2.4 fragment expansion
                                  {"{#var}", "#value"},
                                  {"{#hello}", "#Hello%20World!"},
                                  {"{#half}", "#50%25"},
                                  {"foo{#empty}", "foo#"},
                                  {"foo{#undef}", "foo"},
                                  {"{#x,hello,y}", "#1024,Hello%20World!,768"},
                                  {"{#path,x}/here", "#/foo/bar,1024/here"},
                                  {"{#path:6}/here", "#/foo/b/here"},
                                  // 3.2.5 label expansion with dot-prefix
                                  {"{.who}", ".fred"},
                                  {"{.half,who}", ".50%25.fred"},
                                  {"X{.var}", "X.value"},
                                  {"X{.empty}", "X."},
                                  {"X{.undef}", "X"},
                                  {"X{.var:3}", "X.val"},
                                  // 3.2.6 path segment expansion
                                  {"{/who}", "/fred"},
                                  {"{/half,who}", "/50%25/fred"},
                                  {"{/who,dub}", "/fred/me%2Ftoo"},
                                  {"{/var}", "/value"},
                                  {"{/var,empty}", "/value/"},
                                  {"{/var,undef}", "/value"},
                                  {"{/var,x}/here", "/value/1024/here"},
                                  {"{/var:1}", "/v"},
                                  // 3.2.7 path-style parameter expansion
                                  {"{;who}", ";who=fred"},
                                  {"{;half}", ";half=50%25"},
                                  {"{;empty}", ";empty"},
                                  {"{;v,empty,who}", ";v=6;empty;who=fred"},
                                  {"{;v,bar,who}", ";v=6;who=fred"},
                                  {"{;x,y}", ";x=1024;y=768"},
                                  {"{;x,y,empty}", ";x=1024;y=768;empty"},
                                  {"{;x,y,undef}", ";x=1024;y=768"},
                                  {"{;hello:5}", ";hello=Hello"},
                                  // 3.2.8 form-style query expansion
                                  {"{?who}", "?who=fred"},
                                  {"{?half}", "?half=50%25"},
                                  {"{?x,y}", "?x=1024&y=768"},
                                  {"{?x,y,empty}", "?x=1024&y=768&empty="},
                                  {"{?x,y,undef}", "?x=1024&y=768"},
                                  {"{?var:3}", "?var=val"},
                                  // 3.2.9 form-style query continuation
                                  {"{&who}", "&who=fred"},
                                  {"{&half}", "&half=50%25"},
                                  {"?fixed=yes{&x}", "?fixed=yes&x=1024"},
                                  {"{&x,y,empty}", "&x=1024&y=768&empty="},
                                  {"{&var:3}", "&var=val"},
                              });
}

TEST(UriTemplateExpand, ExplodedValuesAreCommaSeparatedLists) {
    const UriVariables values{{"list", "red,green,blue"}, {"dom", "example,com"}, {"one", "a b"}, {"empty", ""}};
    expect_expansions(values, {
                                  {"{list}", "red%2Cgreen%2Cblue"},
                                  {"{list*}", "red,green,blue"},
                                  {"{+list*}", "red,green,blue"},
                                  {"{#list*}", "#red,green,blue"},
                                  {"www{.dom*}", "www.example.com"},
                                  {"{/list*}", "/red/green/blue"},
                                  {"{/list*,one}", "/red/green/blue/a%20b"},
                                  {"{;list*}", ";list=red;list=green;list=blue"},
                                  {"{?list*}", "?list=red&list=green&list=blue"},
                                  {"{&list*}", "&list=red&list=green&list=blue"},
                                  {"{/one*}", "/a%20b"},
                                  {"{/empty*}", "/"},
                                  {"{?empty*}", "?empty="},
                              });
}

TEST(UriTemplateExpand, PrefixCountsCodePointsAndReservedKeepsEscapes) {
    const UriVariables values{{"word", "\xC3\xA9t\xC3\xA9"}, {"pct", "a%2Fb%zz"}};
    expect_expansions(values, {
                                  {"{word:2}", "%C3%A9t"},
                                  {"{word:1}", "%C3%A9"},
                                  {"{+pct}", "a%2Fb%25zz"},
                                  {"{pct}", "a%252Fb%25zz"},
                              });
}

// ---- Matching --------------------------------------------------------------------------------

TEST(UriTemplateMatch, SimpleVariable) {
    EXPECT_EQ(match("docs://pages/{slug}", "docs://pages/hello-world_1.2~x"),
              (UriVariables{{"slug", "hello-world_1.2~x"}}));
    EXPECT_EQ(match("docs://pages/{slug}", "docs://pages/a%20b%2Fc"), (UriVariables{{"slug", "a b/c"}}));
    EXPECT_EQ(match("{a},{b}", "x,y"), (UriVariables{{"a", "x"}, {"b", "y"}}));
    EXPECT_EQ(match("{a,b}", "x,y"), (UriVariables{{"a", "x"}, {"b", "y"}}));
    EXPECT_EQ(match("{a,b,c}", "x,y%2Cz,w"), (UriVariables{{"a", "x"}, {"b", "y,z"}, {"c", "w"}}));
    EXPECT_EQ(match("{list*}", "a,b,c"), (UriVariables{{"list", "a,b,c"}}));
    for (const char* uri : {"docs://pages/a/b", "docs://pages/a?b", "docs://pages/a#b", "docs://pages/a,b",
                            "docs://pages/a:b", "docs://pages/a b", "docs://pages/a+b", "docs://pages/"}) {
        EXPECT_EQ(match("docs://pages/{slug}", uri), std::nullopt) << uri;
    }
    EXPECT_EQ(match("{a,b}", "x"), std::nullopt);
    EXPECT_EQ(match("{a,b}", "x,"), std::nullopt);
    EXPECT_EQ(match("{list*}", "a,,b"), std::nullopt);
    EXPECT_EQ(match("{list*}", "a,"), std::nullopt);
}

TEST(UriTemplateMatch, BacktracksLongestFirst) {
    EXPECT_EQ(match("{a}-{b}", "x-y-z"), (UriVariables{{"a", "x-y"}, {"b", "z"}}));
    EXPECT_EQ(match("{name}{.ext}", "archive.tar.gz"), (UriVariables{{"name", "archive.tar"}, {"ext", "gz"}}));
    EXPECT_EQ(match("{a}{b}", "abc"), (UriVariables{{"a", "ab"}, {"b", "c"}}));
    EXPECT_EQ(match("{a}{b}", "ab%C3%A9"), (UriVariables{{"a", "ab"}, {"b", "\xC3\xA9"}}));
    EXPECT_EQ(match("{a}{b}", "%C3%A9"), std::nullopt);  // never splits a character
    EXPECT_EQ(match("files/{+path}/meta", "files/a/b/meta"), (UriVariables{{"path", "a/b"}}));
    EXPECT_EQ(match("files/{+path}/meta", "files/a/meta/meta"), (UriVariables{{"path", "a/meta"}}));
    EXPECT_EQ(match("files/{+path}/meta", "files/a/b/meta/x"), std::nullopt);
    EXPECT_EQ(match("{/path*}{/file}", "/a/b/c"), (UriVariables{{"path", "a,b"}, {"file", "c"}}));
}

TEST(UriTemplateMatch, PrefixModifier) {
    EXPECT_EQ(match("{a:3}", "abc"), (UriVariables{{"a", "abc"}}));
    EXPECT_EQ(match("{a:3}", "ab"), (UriVariables{{"a", "ab"}}));
    EXPECT_EQ(match("{a:3}", "abcd"), std::nullopt);
    EXPECT_EQ(match("{a:2}{b}", "abcd"), (UriVariables{{"a", "ab"}, {"b", "cd"}}));
    EXPECT_EQ(match("{a:1}", "%C3%A9"), (UriVariables{{"a", "\xC3\xA9"}}));
    EXPECT_EQ(match("{a:1}", "%C3%A9e"), std::nullopt);
    EXPECT_EQ(match("{?q:2}", "?q=ab"), (UriVariables{{"q", "ab"}}));
    EXPECT_EQ(match("{?q:2}", "?q=abc"), std::nullopt);
}

TEST(UriTemplateMatch, ReservedAndFragment) {
    EXPECT_EQ(match("file:///{+path}", "file:///etc/hosts"), (UriVariables{{"path", "etc/hosts"}}));
    EXPECT_EQ(match("file:///{+path}", "file:///a/b?c=d#e,f"), (UriVariables{{"path", "a/b?c=d#e,f"}}));
    EXPECT_EQ(match("file:///{+path}", "file:///a%20b"), (UriVariables{{"path", "a b"}}));
    EXPECT_EQ(match("file:///{+path}", "file:///"), std::nullopt);
    EXPECT_EQ(match("file:///{+path}", "file:///a b"), std::nullopt);
    EXPECT_EQ(match("{+a,b}", "x,y,z"), (UriVariables{{"a", "x,y"}, {"b", "z"}}));
    EXPECT_EQ(match("page{#section}", "page#intro/part"), (UriVariables{{"section", "intro/part"}}));
    EXPECT_EQ(match("page{#section}", "page"), std::nullopt);
    EXPECT_EQ(match("page{#section}", "page#"), std::nullopt);
    EXPECT_EQ(match("{#a,b}", "#x,y"), (UriVariables{{"a", "x"}, {"b", "y"}}));
}

TEST(UriTemplateMatch, Label) {
    EXPECT_EQ(match("file{.ext}", "file.txt"), (UriVariables{{"ext", "txt"}}));
    EXPECT_EQ(match("file{.ext}", "file.tar.gz"), std::nullopt);
    EXPECT_EQ(match("file{.ext}", "file."), std::nullopt);
    EXPECT_EQ(match("file{.ext}", "filetxt"), std::nullopt);
    EXPECT_EQ(match("X{.x,y}", "X.1024.768"), (UriVariables{{"x", "1024"}, {"y", "768"}}));
    EXPECT_EQ(match("www{.dom*}", "www.example.com"), (UriVariables{{"dom", "example,com"}}));
    EXPECT_EQ(match("www{.dom*}", "www.example..com"), std::nullopt);
}

TEST(UriTemplateMatch, PathSegments) {
    EXPECT_EQ(match("api{/a,b}", "api/x/y"), (UriVariables{{"a", "x"}, {"b", "y"}}));
    EXPECT_EQ(match("api{/a,b}", "api/x"), std::nullopt);
    EXPECT_EQ(match("api{/a,b}", "api/x/"), std::nullopt);
    EXPECT_EQ(match("api{/a,b}", "api/x/y/z"), std::nullopt);
    EXPECT_EQ(match("api{/path*}", "api/a/b%2Fc/d"), (UriVariables{{"path", "a,b/c,d"}}));
    EXPECT_EQ(match("api{/path*}", "api/a"), (UriVariables{{"path", "a"}}));
    EXPECT_EQ(match("api{/path*}", "api"), std::nullopt);
    EXPECT_EQ(match("api{/path*}", "api/"), std::nullopt);
    EXPECT_EQ(match("api{/path*}", "api/a//b"), std::nullopt);
    EXPECT_EQ(match("api{/path*}/meta", "api/a/b/meta"), (UriVariables{{"path", "a,b"}}));
    EXPECT_EQ(match("api{/path*}.json", "api/a/b.json"), (UriVariables{{"path", "a,b"}}));
}

TEST(UriTemplateMatch, PathParameters) {
    EXPECT_EQ(match("m{;x,y}", "m;x=1024;y=768"), (UriVariables{{"x", "1024"}, {"y", "768"}}));
    EXPECT_EQ(match("m{;x,y}", "m;x;y=768"), (UriVariables{{"x", ""}, {"y", "768"}}));
    EXPECT_EQ(match("m{;x,y}", "m;x=;y=7"), (UriVariables{{"x", ""}, {"y", "7"}}));
    EXPECT_EQ(match("m{;x,y}", "m;y=768;x=1024"), std::nullopt);
    EXPECT_EQ(match("m{;x,y}", "m;x=1024"), std::nullopt);
    EXPECT_EQ(match("m{;x}", "m;z=1"), std::nullopt);
    EXPECT_EQ(match("m{;x}.json", "m;x=1.json"), (UriVariables{{"x", "1"}}));
    EXPECT_EQ(match("m{;list*}", "m;list=a;list=b%3Bc;list"), (UriVariables{{"list", "a,b;c,"}}));
    EXPECT_EQ(match("m{;list*}", "m;list=a;other=b"), std::nullopt);
}

TEST(UriTemplateMatch, Query) {
    const UriTemplate t("db://tables/{table}/rows{?limit,offset}");
    EXPECT_EQ(t.match("db://tables/users/rows"), (UriVariables{{"table", "users"}}));
    EXPECT_EQ(t.match("db://tables/users/rows?limit=10"), (UriVariables{{"table", "users"}, {"limit", "10"}}));
    EXPECT_EQ(t.match("db://tables/users/rows?offset=5&limit=10"),
              (UriVariables{{"table", "users"}, {"limit", "10"}, {"offset", "5"}}));
    EXPECT_EQ(t.match("db://tables/users/rows?limit=&offset"),
              (UriVariables{{"table", "users"}, {"limit", ""}, {"offset", ""}}));
    EXPECT_EQ(t.match("db://tables/users/rows?limit=a%26b=c/d?e+f"),
              (UriVariables{{"table", "users"}, {"limit", "a&b=c/d?e+f"}}));
    for (const char* uri :
         {"db://tables/users/rows?limit=10&sort=x", "db://tables/users/rows?sort=x",
          "db://tables/users/rows?limit=1&limit=2", "db://tables/users/rows?", "db://tables/users/rows?limit=1&",
          "db://tables/users/rows&limit=1", "db://tables/users/rows?LIMIT=1", "db://tables/users/rows?limit=a b",
          "db://tables/users/rows?limit=1#frag"}) {
        EXPECT_EQ(t.match(uri), std::nullopt) << uri;
    }
    EXPECT_EQ(match("s{?list*}", "s?list=a&list=b&list="), (UriVariables{{"list", "a,b,"}}));
    EXPECT_EQ(match("s{?x}{&y,z}", "s?z=3&x=1&y=2"), (UriVariables{{"x", "1"}, {"y", "2"}, {"z", "3"}}));
    EXPECT_EQ(match("s?fixed=1{&x}", "s?fixed=1&x=2"), (UriVariables{{"x", "2"}}));
    EXPECT_EQ(match("s?fixed=1{&x}", "s?fixed=1"), UriVariables{});
    EXPECT_EQ(match("s?fixed=1{&x}", "s?fixed=1&y=2"), std::nullopt);
    EXPECT_EQ(match("s{?q}{#frag}", "s?q=1#top"), (UriVariables{{"q", "1"}, {"frag", "top"}}));
    EXPECT_EQ(match("s{?q}{#frag}", "s#top"), (UriVariables{{"frag", "top"}}));
    EXPECT_EQ(match("s{?q}&fixed=1", "s?q=2&fixed=1"), (UriVariables{{"q", "2"}}));
    EXPECT_EQ(match("s{?q}/more", "s?q=2/more"), (UriVariables{{"q", "2"}}));
    EXPECT_EQ(match("s{?q}/more", "s?q=/more"), (UriVariables{{"q", ""}}));
    EXPECT_EQ(match("s{?q}{/p}", "s?q=a/b/c"), (UriVariables{{"q", "a/b"}, {"p", "c"}}));
    EXPECT_EQ(match("s{?q}/more", "s?q/more"), std::nullopt);
    EXPECT_EQ(match("s{?q}", "s?q=1?x=2"), (UriVariables{{"q", "1?x=2"}}));  // '?' may appear in a query
}

TEST(UriTemplateMatch, LiteralsMatchExactly) {
    EXPECT_EQ(match("docs://readme", "docs://readme"), UriVariables{});
    EXPECT_EQ(match("docs://readme", "docs://README"), std::nullopt);
    EXPECT_EQ(match("docs://readme", "docs://readme/"), std::nullopt);
    EXPECT_EQ(match("", ""), UriVariables{});
    EXPECT_EQ(match("docs://pages/{slug}", "Docs://pages/a"), std::nullopt);
    EXPECT_EQ(match("docs://pages/{slug}", "docs://page/a"), std::nullopt);
    EXPECT_EQ(match("docs://pages/{slug}/raw", "docs://pages/a/raw/"), std::nullopt);
    EXPECT_EQ(match("docs://pages/{slug}/raw", "docs://pages/a/RAW"), std::nullopt);
    EXPECT_EQ(match("docs://pages/{slug}", "docs://pages/a/extra"), std::nullopt);
    EXPECT_EQ(match("a{x}b", "ab"), std::nullopt);
    EXPECT_EQ(match("a%20{x}", "a%20y"), (UriVariables{{"x", "y"}}));
    EXPECT_EQ(match("a%20{x}", "a y"), std::nullopt);
}

TEST(UriTemplateMatch, PercentDecoding) {
    EXPECT_EQ(match("{x}", "%E2%82%AC%c3%a9"), (UriVariables{{"x", "\xE2\x82\xAC\xC3\xA9"}}));
    EXPECT_EQ(match("{x}", "%00"), (UriVariables{{"x", std::string(1, '\0')}}));
    EXPECT_EQ(match("{+x}", "%2525"), (UriVariables{{"x", "%25"}}));
    EXPECT_EQ(match("{?x}", "?x=%3D%26"), (UriVariables{{"x", "=&"}}));
    EXPECT_EQ(match("{?x}", "?x=a+b"), (UriVariables{{"x", "a+b"}}));  // '+' is not a space
}

TEST(UriTemplateMatch, RejectsInvalidEscapesAndUtf8) {
    for (const char* uri : {"p/%G1", "p/%1G", "p/%4", "p/%", "p/a%", "p/%%41", "p/%FF", "p/%C3", "p/%C3%28", "p/%C0%AF",
                            "p/%ED%A0%80", "p/%F4%90%80%80", "p/%E2%82", "p/\xC3\xA9"}) {
        EXPECT_EQ(match("p/{x}", uri), std::nullopt) << uri;
        EXPECT_EQ(match("p/{+x}", uri), std::nullopt) << uri;
    }
    EXPECT_EQ(match("p/{+x}", "p/%F0%9F%98%80"), (UriVariables{{"x", "\xF0\x9F\x98\x80"}}));
    EXPECT_EQ(match("\xC3\xA9/{x}", "\xC3\xA9/a"), (UriVariables{{"x", "a"}}));
    EXPECT_EQ(match("{?x}", "?x=%ZZ"), std::nullopt);
}

TEST(UriTemplateMatch, RoundTrips) {
    const std::vector<std::pair<std::string, UriVariables>> cases = {
        {"docs://pages/{slug}", {{"slug", "hello world/\xC3\xA9,%"}}},
        {"file:///{+path}", {{"path", "etc/a b/c?d#e"}}},
        {"db://tables/{table}/rows{?limit,offset}", {{"table", "t&1"}, {"limit", "10"}, {"offset", "a=b&c"}}},
        {"db://tables/{table}/rows{?limit,offset}", {{"table", "t"}, {"offset", "0"}}},
        {"api{/version,path*}{.format}{?q,tags*}{&page}{#frag}",
         {{"version", "v1"},
          {"path", "a,b c,d/e"},
          {"format", "json"},
          {"q", "x y"},
          {"tags", "red,green"},
          {"page", "2"},
          {"frag", "top/1"}}},
        {"m{;x,y,list*}", {{"x", "1"}, {"y", ""}, {"list", "a,b"}}},
        {"{a}-{b}.{c:3}",
         {{"a", "x-y"},
          {"b", "z"},
          {"c",
           "\xF0\x9F\x98\x80"
           "ab"}}},
        {"mail://{user}@{+host}", {{"user", "bob.smith"}, {"host", "example.com:25"}}},
    };
    for (const auto& [text, values] : cases) {
        const UriTemplate t(text);
        const std::string uri = t.expand(values);
        EXPECT_EQ(t.match(uri), values) << text << " -> " << uri;
    }
}

// ---- Hostile input ---------------------------------------------------------------------------

TEST(UriTemplateHostile, LongUris) {
    const std::string big(100 * 1024, 'a');
    EXPECT_EQ(match("docs://pages/{slug}", "docs://pages/" + big), (UriVariables{{"slug", big}}));
    EXPECT_EQ(match("docs://pages/{slug}", "docs://pages/" + big + "/"), std::nullopt);
    EXPECT_EQ(match("files/{+path}/meta", "files/" + big + "/meta"), (UriVariables{{"path", big}}));

    std::string segments;
    for (int i = 0; i < 25 * 1024; ++i) segments += "/abc";
    const auto result = match("api{/path*}/meta", "api" + segments + "/meta");
    ASSERT_TRUE(result.has_value());
    EXPECT_EQ(result->at("path").size(), 25u * 1024 * 4 - 1);
    EXPECT_EQ(match("api{/path*}/meta", "api" + segments + "/met"), std::nullopt);

    std::string params = "?a=1";
    for (int i = 0; i < 20 * 1024; ++i) params += "&a=1";
    EXPECT_EQ(match("s{?a}", "s" + params), std::nullopt);
    const auto list = match("s{?a*}", "s" + params);
    ASSERT_TRUE(list.has_value());
    EXPECT_EQ(list->at("a").size(), (20u * 1024 + 1) * 2 - 1);
    EXPECT_EQ(match("s{?a*}", "s" + params + "&b=2"), std::nullopt);
}

TEST(UriTemplateHostile, PathologicalBacktracking) {
    std::string dashes;
    for (int i = 0; i < 50 * 1024; ++i) dashes += "x-";
    dashes += "x";
    // None of these match; each would take quadratic or worse time without the bounds.
    EXPECT_EQ(match("{a}-{b}-{c}!{d}", dashes + "!"), std::nullopt);
    EXPECT_EQ(match("{a}-{b}-{c}-{d}", dashes + "?"), std::nullopt);
    EXPECT_EQ(match("{a}{b}{c}{d}{e}", std::string(100 * 1024, 'a') + "!"), std::nullopt);
    EXPECT_EQ(match("{+a}/{+b}/{+c}/{+d}", std::string(100 * 1024, '/') + " "), std::nullopt);
    EXPECT_EQ(match("{+a,b,c,d,e}", std::string(100 * 1024, ',') + " "), std::nullopt);
    std::string segments;
    for (int i = 0; i < 30 * 1024; ++i) segments += "/x";
    EXPECT_EQ(match("{/a*}{/b*}{/c*}{/d*}", segments + "/"), std::nullopt);
    EXPECT_EQ(match("{/a*}-{/b*}-{/c*}", segments + "-" + segments + "!"), std::nullopt);
    std::string params;
    for (int i = 0; i < 20 * 1024; ++i) params += ";a=a";
    EXPECT_EQ(match("{;a*}{;b}", params), std::nullopt);
    std::string escapes;
    for (int i = 0; i < 30 * 1024; ++i) escapes += "%41";
    EXPECT_EQ(match("{a}{b}{c}{d}", escapes + "!"), std::nullopt);
    std::string query = "?";
    for (int i = 0; i < 10 * 1024; ++i) query += "a=1&b=2&";
    EXPECT_EQ(match("{?a*,b*}{&c}", query + "c=3&d"), std::nullopt);
    std::string nested = "?a=";
    for (int i = 0; i < 17 * 1024; ++i) nested += "?b=?c=";
    EXPECT_EQ(match("{?a}{?b}{?c}{/d}", nested + " "), std::nullopt);

    // Matches that exist are still found in long inputs.
    const auto found = match("{a}-{b}-{c}-{d}!", dashes + "!");
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->at("d"), "x");
    EXPECT_EQ(found->at("a").size(), dashes.size() - 6);
    const auto query_value = match("{?a}{/b}", "?a=" + segments.substr(1) + "/y");
    ASSERT_TRUE(query_value.has_value());
    EXPECT_EQ(query_value->at("a"), segments.substr(1));
    EXPECT_EQ(query_value->at("b"), "y");
    const auto split = match("{a}{b}{c}{d}{e}/", std::string(100 * 1024, 'a') + "/");
    ASSERT_TRUE(split.has_value());
    EXPECT_EQ(split->at("a").size(), 100u * 1024 - 4);
    EXPECT_EQ(split->at("e"), "a");
}

TEST(UriTemplateHostile, ConcurrentMatching) {
    const UriTemplate t("db://tables/{table}/rows{?limit,offset}");
    std::vector<std::thread> threads;
    std::vector<int> matched(4, 0);
    threads.reserve(4);
    for (int i = 0; i < 4; ++i) {
        threads.emplace_back([&, i] {
            for (int n = 0; n < 2000; ++n) {
                const std::string offset = std::to_string(n);
                const std::string table = std::to_string(i) + "_" + offset;
                const auto vars = t.match("db://tables/" + table + "/rows?offset=" + offset);
                if (vars && vars->at("table") == table && vars->at("offset") == offset) ++matched[i];
            }
        });
    }
    for (auto& thread : threads) thread.join();
    EXPECT_EQ(matched, std::vector<int>(4, 2000));
}

}  // namespace
