// The demo's notes assistant: every kind of handler mcp-cpp serves.
//   tools      echo, word_stats (structured output), slow_count (progress + cancellation),
//              color_swatch (an image), add_note (changes a resource and tells subscribers),
//              delete_note (asks the user to confirm: elicitation), draft_note (a title from the
//              user and a body from the client's model in one round), project_roots (the
//              client's roots), connect_account (a URL elicitation), export_notes (a task)
//   resources  demo://server/stats, template demo://notes/{slug}
//   prompts    summarize (enum argument, completes by itself), review_note (completes note slugs)
//   extensions MCP Apps: ui://mcp-cpp-demo/word-stats renders word_stats' result;
//              Skills: the skill notes-style (skill://notes-style/SKILL.md and its example)
#include "notes_app.hpp"

#include <mcp/mcp.hpp>

#include "png.hpp"
#include "word_stats_app.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <sstream>
#include <stop_token>

namespace demo {

struct EchoInput {
    std::string text;
};
BOOST_DESCRIBE_STRUCT(EchoInput, (), (text))
inline void mcp_schema(mcp::json::SchemaHints<EchoInput>& h) {
    h.field(&EchoInput::text).description("Text to send back");
}

struct StatsInput {
    std::string text;
    std::optional<int> top;
};
BOOST_DESCRIBE_STRUCT(StatsInput, (), (text, top))
inline void mcp_schema(mcp::json::SchemaHints<StatsInput>& h) {
    h.field(&StatsInput::text).description("The text to analyse");
    h.field(&StatsInput::top)
        .description("How many of the most frequent words to list (default 5)")
        .minimum(1)
        .maximum(50);
}

struct WordCount {
    std::string word;
    int count;
};
BOOST_DESCRIBE_STRUCT(WordCount, (), (word, count))

struct TextStats {
    int words;
    int characters;
    int lines;
    std::vector<WordCount> top_words;
};
BOOST_DESCRIBE_STRUCT(TextStats, (), (words, characters, lines, top_words))

struct CountInput {
    int to;
    std::optional<int> step_ms;
};
BOOST_DESCRIBE_STRUCT(CountInput, (), (to, step_ms))
inline void mcp_schema(mcp::json::SchemaHints<CountInput>& h) {
    h.field(&CountInput::to).description("Count from 1 up to this number").minimum(1).maximum(10000);
    h.field(&CountInput::step_ms).description("Milliseconds per step (default 100)").minimum(0).maximum(10000);
}

enum class Color { red, green, blue, orange, purple };
BOOST_DESCRIBE_ENUM(Color, red, green, blue, orange, purple)

struct SwatchInput {
    Color color;
    std::optional<int> size;
};
BOOST_DESCRIBE_STRUCT(SwatchInput, (), (color, size))
inline void mcp_schema(mcp::json::SchemaHints<SwatchInput>& h) {
    h.field(&SwatchInput::color).description("Colour of the swatch");
    h.field(&SwatchInput::size).description("Width and height in pixels (default 16)").minimum(1).maximum(256);
}

struct NoteInput {
    std::string slug;
    std::string body;
};
BOOST_DESCRIBE_STRUCT(NoteInput, (), (slug, body))
inline void mcp_schema(mcp::json::SchemaHints<NoteInput>& h) {
    h.field(&NoteInput::slug).description("Short name of the note").pattern("^[a-z0-9-]{1,40}$");
    h.field(&NoteInput::body).description("Markdown text of the note");
}

enum class Style { brief, detailed, bullets };
BOOST_DESCRIBE_ENUM(Style, brief, detailed, bullets)

struct SummarizeInput {
    std::string text;
    std::optional<Style> style;
};
BOOST_DESCRIBE_STRUCT(SummarizeInput, (), (text, style))
inline void mcp_schema(mcp::json::SchemaHints<SummarizeInput>& h) {
    h.field(&SummarizeInput::text).description("The text to summarize");
    h.field(&SummarizeInput::style).description("brief, detailed or bullets");
}

struct SlugInput {
    std::string slug;
};
BOOST_DESCRIBE_STRUCT(SlugInput, (), (slug))

struct DraftInput {
    std::string topic;
};
BOOST_DESCRIBE_STRUCT(DraftInput, (), (topic))
inline void mcp_schema(mcp::json::SchemaHints<DraftInput>& h) {
    h.field(&DraftInput::topic).description("What the note is about");
}

struct ReviewInput {
    std::string slug;
};
BOOST_DESCRIBE_STRUCT(ReviewInput, (), (slug))
inline void mcp_schema(mcp::json::SchemaHints<ReviewInput>& h) {
    h.field(&ReviewInput::slug).description("Which note to review");
}

struct ExportInput {
    std::optional<int> step_ms;
    std::optional<bool> confirm;
};
BOOST_DESCRIBE_STRUCT(ExportInput, (), (step_ms, confirm))
inline void mcp_schema(mcp::json::SchemaHints<ExportInput>& h) {
    h.field(&ExportInput::step_ms).description("Milliseconds per note (default 500)").minimum(0).maximum(60000);
    h.field(&ExportInput::confirm).description("Ask the user before exporting (default false)");
}

// The notes behind demo://notes/{slug}; add_note changes them while the server runs.
class Notes {
public:
    Notes() {
        notes_["welcome"] = "# Welcome\n\nThis server is the mcp-cpp demo. Try the tools, read notes, fetch prompts.";
        notes_["shopping"] = "# Shopping\n\n- coffee\n- bread\n- a 2-core build machine";
    }
    std::optional<std::string> get(std::string_view slug) const {
        std::lock_guard lock(mutex_);
        auto it = notes_.find(std::string(slug));
        if (it == notes_.end()) return std::nullopt;
        return it->second;
    }
    void put(const std::string& slug, std::string body) {
        std::lock_guard lock(mutex_);
        notes_[slug] = std::move(body);
    }
    bool remove(const std::string& slug) {
        std::lock_guard lock(mutex_);
        return notes_.erase(slug) > 0;
    }
    std::vector<std::string> slugs() const {
        std::lock_guard lock(mutex_);
        std::vector<std::string> out;
        for (const auto& [slug, body] : notes_) out.push_back(slug);
        return out;
    }

private:
    mutable std::mutex mutex_;
    std::map<std::string, std::string> notes_;
};

// Waits `step`, or less when the call is cancelled meanwhile; false when it is.
bool wait_unless_cancelled(std::chrono::milliseconds step, const std::stop_token& stop) {
    std::mutex mutex;
    std::condition_variable_any wake;
    std::unique_lock lock(mutex);
    wake.wait_for(lock, stop, step, [] { return false; });  // nothing but the stop token wakes it early
    return !stop.stop_requested();
}

TextStats word_stats(const StatsInput& in) {
    TextStats stats{0, 0, in.text.empty() ? 0 : 1, {}};
    std::map<std::string, int> counts;
    std::string word;
    auto flush = [&] {
        if (word.empty()) return;
        ++stats.words;
        ++counts[word];
        word.clear();
    };
    for (unsigned char c : in.text) {
        if ((c & 0xC0) != 0x80) ++stats.characters;  // count code points, not bytes
        if (c == '\n') ++stats.lines;
        if (std::isalnum(c) || c >= 0x80 || c == '\'')
            word += static_cast<char>(std::tolower(c));
        else
            flush();
    }
    flush();
    std::vector<WordCount> all;
    all.reserve(counts.size());
    for (const auto& [w, n] : counts) all.push_back({w, n});
    std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.count > b.count; });
    all.resize(std::min<std::size_t>(all.size(), static_cast<std::size_t>(in.top.value_or(5))));
    stats.top_words = std::move(all);
    return stats;
}

std::array<std::uint8_t, 3> rgb(Color c) {
    switch (c) {
        case Color::red: return {220, 40, 40};
        case Color::green: return {40, 170, 70};
        case Color::blue: return {40, 90, 220};
        case Color::orange: return {240, 140, 20};
        case Color::purple: return {140, 60, 180};
    }
    return {0, 0, 0};
}

mcp::Implementation notes_app_info() {
    return {.name = "mcp-cpp-demo", .version = "0.1.0", .title = "mcp-cpp demo: a notes assistant"};
}

void add_notes_app(mcp::Server& server) {
    auto notes = std::make_shared<Notes>();
    auto calls = std::make_shared<std::atomic<int>>(0);
    auto cancellations = std::make_shared<std::atomic<int>>(0);
    // OAuth scopes, checked when the server runs with --auth-issuer (or --stdio-subject): reading
    // needs notes:read, changing notes needs notes:write.
    const std::vector<std::string> read{"notes:read"};
    const std::vector<std::string> write{"notes:write"};

    // Never blocks, so it runs on the transport's thread rather than the handler pool.
    server.tool({.name = "echo",
                 .description = "Returns its text argument unchanged",
                 .runs_inline = true,
                 .required_scopes = read},
                [calls](const EchoInput& in) {
                    ++*calls;
                    return in.text;
                });

    // An HTML view of word_stats' result for hosts that render MCP Apps; others read the text.
    mcp::Apps apps(server);
    apps.add({.uri = "ui://mcp-cpp-demo/word-stats",
              .name = "Word statistics",
              .description = "Totals and a bar per frequent word",
              .html = kWordStatsApp,
              .prefers_border = true});
    server.tool({.name = "word_stats",
                 .description = "Counts words, characters and lines, and lists the most frequent words",
                 .title = "Word statistics",
                 .annotations = {.read_only_hint = true, .idempotent_hint = true},
                 .meta = apps.tool_meta("ui://mcp-cpp-demo/word-stats"),
                 .required_scopes = read},
                [calls](const StatsInput& in, mcp::ToolContext& ctx) {
                    ++*calls;
                    auto stats = word_stats(in);
                    // With --otlp-endpoint: what the handler's span shows besides the call's own facts.
                    ctx.set_span_attribute("demo.words", stats.words);
                    ctx.add_span_event("counted", {{"demo.lines", stats.lines}});
                    return stats;
                });

    server.tool({.name = "slow_count",
                 .description = "Counts slowly, reporting progress at each step; stops early when cancelled",
                 .annotations = {.read_only_hint = true},
                 .required_scopes = read},
                [calls, cancellations](const CountInput& in, mcp::ToolContext& ctx) {
                    ++*calls;
                    const auto step = std::chrono::milliseconds(in.step_ms.value_or(100));
                    for (int i = 1; i <= in.to; ++i) {
                        if (!wait_unless_cancelled(step, ctx.stop_token())) {
                            ++*cancellations;
                            return "Cancelled at " + std::to_string(i - 1);
                        }
                        ctx.progress(i, in.to, "counted " + std::to_string(i));
                    }
                    ctx.info("slow_count finished");
                    return "Counted to " + std::to_string(in.to);
                });

    // A long job: the client gets a task at once and polls it (tasks/get, or tasks/result on the
    // 2025 wire); the question, if asked, waits in the task for the client's answer.
    server.tool({.name = "export_notes",
                 .description = "Exports every note, slowly (one step per note); runs as a task the client polls",
                 .annotations = {.read_only_hint = true},
                 .required_scopes = read,
                 .task_support = mcp::TaskSupport::optional},
                [notes, calls](const ExportInput& in, mcp::ToolContext& ctx) {
                    ++*calls;
                    const auto slugs = notes->slugs();
                    if (in.confirm.value_or(false)) {
                        mcp::FormSchema form;
                        form.boolean("confirm").title("Export them?").default_value(true);
                        auto answer = ctx.elicit("Export " + std::to_string(slugs.size()) + " notes?", form, "confirm");
                        const auto* yes = answer.content.if_contains("confirm");
                        if (!answer.accepted() || yes == nullptr || *yes != true) return std::string("Export declined");
                    }
                    const auto step = std::chrono::milliseconds(in.step_ms.value_or(500));
                    std::string exported;
                    for (std::size_t i = 0; i < slugs.size(); ++i) {
                        if (!wait_unless_cancelled(step, ctx.stop_token()))
                            return "Cancelled after " + std::to_string(i) + " notes";
                        exported += (exported.empty() ? "" : ", ") + slugs[i];
                        ctx.progress(static_cast<double>(i + 1), static_cast<double>(slugs.size()),
                                     "exported " + slugs[i]);
                    }
                    return "Exported " + std::to_string(slugs.size()) + " notes: " + exported;
                });

    server.tool({.name = "color_swatch",
                 .description = "Draws a square PNG swatch of a colour",
                 .title = "Colour swatch",
                 .required_scopes = read},
                [calls](const SwatchInput& in) {
                    ++*calls;
                    const auto size = static_cast<std::uint32_t>(in.size.value_or(16));
                    const auto [r, g, b] = rgb(in.color);
                    return mcp::image(solid_png(size, size, r, g, b), "image/png");
                });

    server.tool({.name = "add_note",
                 .description = "Creates or replaces a note; clients subscribed to it are told",
                 .required_scopes = write},
                [&server, notes, calls](const NoteInput& in) {
                    ++*calls;
                    notes->put(in.slug, in.body);
                    server.notify_resource_updated("demo://notes/" + in.slug);
                    return mcp::resource_link("demo://notes/" + in.slug, in.slug);
                });

    server.tool(
        {.name = "delete_note",
         .description = "Deletes a note after the user confirms",
         .annotations = {.destructive_hint = true},
         // Nothing happens before the question: while the user decides, the call holds no thread.
         .replayable = true,
         .required_scopes = write},
        [&server, notes, calls](const SlugInput& in, mcp::ToolContext& ctx) {
            ++*calls;
            if (!notes->get(in.slug)) throw mcp::ToolError("No note named " + in.slug);
            mcp::FormSchema form;
            form.boolean("confirm").title("Delete it?").default_value(false);
            form.text("reason").title("Why (optional)").optional();
            auto answer = ctx.elicit("Delete the note \"" + in.slug + "\"?", form, "confirm_delete");
            if (!answer.accepted() || !answer.content.contains("confirm") || answer.content.at("confirm") != true) {
                return "Kept " + in.slug;
            }
            notes->remove(in.slug);
            server.notify_resource_updated("demo://notes/" + in.slug);
            return "Deleted " + in.slug;
        });

    server.tool(
        {.name = "draft_note",
         .description = "Drafts a note: the user names it and the client's model writes it",
         .required_scopes = write},
        [&server, notes, calls](const DraftInput& in, mcp::ToolContext& ctx) {
            ++*calls;
            mcp::FormSchema form;
            form.text("slug").title("Short name for the note").min_length(1).max_length(40);
            mcp::SamplingRequest body;
            body.messages.push_back({mcp::Role::user, mcp::text("Write a short Markdown note about: " + in.topic)});
            body.system_prompt = "You write concise notes.";
            body.max_tokens = 400;
            body.key = "body";
            // One round: on the 2026 wire the client gets both requests together.
            auto answers = ctx.ask(
                {mcp::ElicitRequest{"Name the note about " + in.topic, std::move(form), "name"}, std::move(body)});
            const auto& name = std::get<mcp::ElicitResult>(answers[0]);
            if (!name.accepted() || !name.content.contains("slug"))
                return mcp::CallToolResult{{mcp::text("Not saved")}, {}, false, {}};
            const std::string slug(name.content.at("slug").as_string());
            notes->put(slug, std::get<mcp::SamplingResult>(answers[1]).text());
            server.notify_resource_updated("demo://notes/" + slug);
            return mcp::CallToolResult{{mcp::resource_link("demo://notes/" + slug, slug)}, {}, false, {}};
        });

    server.tool({.name = "project_roots",
                 .description = "Lists the roots the client shares",
                 .annotations = {.read_only_hint = true},
                 .required_scopes = read},
                [calls](mcp::ToolContext& ctx) {
                    ++*calls;
                    std::string out;
                    for (const auto& root : ctx.roots())
                        out += root.uri + (root.name.empty() ? "" : " (" + root.name + ")") + "\n";
                    return out.empty() ? std::string("The client shares no roots") : out;
                });

    server.tool({.name = "connect_account",
                 .description = "Asks the user to sign in to the notes cloud in their browser",
                 .required_scopes = read},
                [calls](mcp::ToolContext& ctx) {
                    ++*calls;
                    if (!ctx.client_supports("elicitation.url"))
                        throw mcp::ToolError("This client cannot open a sign-in page");
                    auto answer = ctx.elicit_url("Sign in to the notes cloud", "https://notes.example.com/connect");
                    return answer.accepted() ? std::string("Sign-in page opened") : std::string("Sign-in declined");
                });

    server.resource("demo://server/stats",
                    {.name = "stats",
                     .description = "Calls served and cancellations observed",
                     .mime_type = "application/json",
                     .required_scopes = read},
                    [calls, cancellations, notes] {
                        boost::json::object o{{"tool_calls", calls->load()},
                                              {"cancellations_observed", cancellations->load()},
                                              {"notes", notes->slugs().size()}};
                        return boost::json::serialize(o);
                    });

    server.resource_template(
        "demo://notes/{slug}",
        {.name = "note", .description = "A note, as Markdown", .mime_type = "text/markdown", .required_scopes = read},
        [notes](std::string_view slug) {
            auto body = notes->get(slug);
            if (!body) throw mcp::ResourceNotFound("demo://notes/" + std::string(slug));
            return *body;
        });
    server.complete_template_variable("demo://notes/{slug}", "slug", [notes](const mcp::CompletionRequest& r) {
        std::vector<std::string> out;
        for (auto& s : notes->slugs()) {
            if (s.starts_with(r.value)) out.push_back(s);
        }
        return out;
    });

    server.prompt({.name = "summarize", .description = "Asks the model to summarize a text", .required_scopes = read},
                  [](const SummarizeInput& in) {
                      const auto style = in.style.value_or(Style::brief);
                      const char* how = style == Style::brief      ? "in two sentences"
                                        : style == Style::detailed ? "in detail"
                                                                   : "as bullet points";
                      return "Summarize the following text " + std::string(how) + ":\n\n" + in.text;
                  });

    server.prompt(
        {.name = "review_note", .description = "Asks the model to review one of the notes", .required_scopes = read},
        [notes](const ReviewInput& in) {
            auto body = notes->get(in.slug);
            if (!body) throw mcp::InvalidParams("No note named " + in.slug);
            return std::vector<mcp::PromptMessage>{
                mcp::user_message(mcp::text("Review this note for clarity and suggest improvements.")),
                mcp::user_message(mcp::embedded_text("demo://notes/" + in.slug, *body, "text/markdown"))};
        });
    server.complete_prompt_argument("review_note", "slug", [notes](const mcp::CompletionRequest& r) {
        std::vector<std::string> out;
        for (auto& s : notes->slugs()) {
            if (s.starts_with(r.value)) out.push_back(s);
        }
        return out;
    });

    // A skill that tells an agent how notes are written here (the Skills extension).
    mcp::Skills skills(server);
    skills.add({.path = "notes-style",
                .skill_md = "---\n"
                            "name: notes-style\n"
                            "description: How to write notes for this server so that they read well and link up\n"
                            "license: MIT\n"
                            "---\n\n"
                            "# Writing notes\n\n"
                            "Start with a `# Title`, keep one topic per note, and name it with a short slug\n"
                            "(`add_note`). `examples/good-note.md` shows the shape. Run `word_stats` on a long\n"
                            "note before saving it: past 300 words, split it.\n",
                .files = {{.path = "examples/good-note.md",
                           .content = "# Release checklist\n\n- tag the build\n- publish the notes\n"}}});
}

}  // namespace demo
