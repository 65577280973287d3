#include "tilescope/sim/CodeletSourceScanner.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace tilescope::sim {

namespace {

/// Blanks comments, string and character literals and preprocessor lines, keeping newlines.
std::string stripNonCode(std::string_view src) {
    std::string out(src);
    std::size_t i = 0;
    bool lineStart = true;
    while (i < out.size()) {
        const char c = out[i];
        if (lineStart && (c == ' ' || c == '\t')) {
            ++i;
            continue;
        }
        if (lineStart && c == '#') { // directive, with backslash continuations
            while (i < out.size() && out[i] != '\n') {
                if (out[i] == '\\' && i + 1 < out.size() && out[i + 1] == '\n')
                    out[i++] = ' ';
                out[i++] = ' ';
            }
            continue;
        }
        lineStart = false;
        if (c == '\n') {
            lineStart = true;
            ++i;
        } else if (c == '/' && i + 1 < out.size() && out[i + 1] == '/') {
            while (i < out.size() && out[i] != '\n')
                out[i++] = ' ';
        } else if (c == '/' && i + 1 < out.size() && out[i + 1] == '*') {
            out[i++] = ' ';
            out[i++] = ' ';
            while (i < out.size() && !(out[i] == '*' && i + 1 < out.size() && out[i + 1] == '/')) {
                if (out[i] != '\n')
                    out[i] = ' ';
                ++i;
            }
            for (int k = 0; k < 2 && i < out.size(); ++k)
                out[i++] = ' ';
        } else if (c == '"' || c == '\'') {
            out[i++] = ' ';
            while (i < out.size() && out[i] != c) {
                if (out[i] == '\\' && i + 1 < out.size())
                    out[i++] = ' ';
                if (out[i] != '\n')
                    out[i] = ' ';
                ++i;
            }
            if (i < out.size())
                out[i++] = ' ';
        } else {
            ++i;
        }
    }
    return out;
}

std::vector<std::string> tokenize(const std::string& s) {
    std::vector<std::string> tokens;
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (std::isspace(c)) {
            ++i;
        } else if (std::isalpha(c) || c == '_') {
            std::size_t j = i;
            while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_'))
                ++j;
            tokens.emplace_back(s.substr(i, j - i));
            i = j;
        } else if (std::isdigit(c)) {
            std::size_t j = i;
            while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '.'))
                ++j;
            tokens.emplace_back(s.substr(i, j - i));
            i = j;
        } else if (c == ':' && i + 1 < s.size() && s[i + 1] == ':') {
            tokens.emplace_back("::");
            i += 2;
        } else {
            tokens.emplace_back(1, s[i]);
            ++i;
        }
    }
    return tokens;
}

bool isIdentifier(const std::string& t) {
    return !t.empty() && (std::isalpha(static_cast<unsigned char>(t[0])) || t[0] == '_');
}

const std::set<std::string, std::less<>> kNonMemberStarts = {
    "using", "typedef", "static", "friend",        "template", "enum",
    "class", "struct",  "union",  "static_assert", "operator"};

const std::set<std::string, std::less<>> kVertexBases = {"Vertex", "MultiVertex",
                                                         "SupervisorVertex"};

class Scanner {
public:
    explicit Scanner(std::vector<std::string> tokens) : t_(std::move(tokens)) {}

    std::vector<ScannedVertexClass> run() {
        scanScope(t_.size(), {});
        for (const auto& inst : instantiations_)
            attachInstantiation(inst);
        for (auto& cls : found_)
            if (cls.declaresUndefinedConstructor && definesConstructorOutOfClass(cls))
                cls.declaresUndefinedConstructor = false;
        return found_;
    }

private:
    /// Index just past the bracket matching the opener at `i` ('{' or '<' or '(').
    std::size_t skipBalanced(std::size_t i, const std::string& open, const std::string& close) {
        int depth = 0;
        for (; i < t_.size(); ++i) {
            if (t_[i] == open)
                ++depth;
            else if (t_[i] == close && --depth == 0)
                return i + 1;
        }
        return t_.size();
    }

    /// Scans namespace-level code in [pos_, end).
    void scanScope(std::size_t end, const std::string& prefix) {
        bool pendingTemplate = false;
        while (pos_ < end) {
            const std::string& tok = t_[pos_];
            if (tok == "}") {
                ++pos_;
                return;
            }
            if (tok == "namespace") {
                std::string name;
                ++pos_;
                while (pos_ < end && t_[pos_] != "{" && t_[pos_] != ";" && t_[pos_] != "=")
                    name += t_[pos_++];
                if (pos_ < end && t_[pos_] == "{") {
                    ++pos_;
                    scanScope(end, name.empty() ? prefix : prefix + name + "::");
                }
                continue;
            }
            if (tok == "template") {
                ++pos_;
                if (pos_ < end && t_[pos_] == "<") {
                    pendingTemplate = true;
                    pos_ = skipBalanced(pos_, "<", ">");
                } else if (pos_ < end && (t_[pos_] == "class" || t_[pos_] == "struct")) {
                    readInstantiation(end, prefix); // template class Fill<float>;
                }
                continue;
            }
            if (tok == "class" || tok == "struct") {
                scanClass(prefix, pendingTemplate);
                pendingTemplate = false;
                continue;
            }
            if (tok == "{") { // function bodies, initialisers, extern "C" blocks
                pos_ = skipBalanced(pos_, "{", "}");
                continue;
            }
            if (tok == ";")
                pendingTemplate = false;
            ++pos_;
        }
    }

    /// An explicit instantiation `template class X<args>;`, read up to its ';'.
    struct PendingInstantiation {
        std::string prefix;
        std::vector<std::string> tokens; // X < args >
    };

    void readInstantiation(std::size_t end, const std::string& prefix) {
        ++pos_; // class/struct
        PendingInstantiation inst{prefix, {}};
        while (pos_ < end && t_[pos_] != ";")
            inst.tokens.push_back(t_[pos_++]);
        if (!inst.tokens.empty() && inst.tokens[0] == "::")
            inst.tokens.erase(inst.tokens.begin());
        instantiations_.push_back(std::move(inst));
    }

    /// Joins tokens as C++ source, spaced only where two words meet ("unsigned int").
    static std::string join(const std::vector<std::string>& tokens, std::size_t from,
                            std::size_t to) {
        std::string out;
        for (std::size_t i = from; i < to; ++i) {
            if (!out.empty() && isIdentifier(tokens[i]) &&
                (std::isalnum(static_cast<unsigned char>(out.back())) || out.back() == '_'))
                out += ' ';
            out += tokens[i];
        }
        return out;
    }

    /// Template arguments as poputil::templateVertex names them: `unsigned` is "unsigned int",
    /// `poplar::half` is "half".
    static std::vector<std::string> canonicalArguments(const std::vector<std::string>& tokens,
                                                       std::size_t from, std::size_t to) {
        std::vector<std::string> out;
        for (std::size_t i = from; i < to; ++i) {
            if (tokens[i] == "poplar" && i + 2 < to && tokens[i + 1] == "::" &&
                tokens[i + 2] == "half") {
                out.push_back("half");
                i += 2;
                continue;
            }
            out.push_back(tokens[i]);
            const bool bareUnsigned =
                tokens[i] == "unsigned" &&
                !(i + 1 < to && (tokens[i + 1] == "int" || tokens[i + 1] == "short" ||
                                 tokens[i + 1] == "char" || tokens[i + 1] == "long"));
            if (bareUnsigned)
                out.push_back("int");
        }
        return out;
    }

    void attachInstantiation(const PendingInstantiation& inst) {
        const auto open = std::find(inst.tokens.begin(), inst.tokens.end(), "<");
        if (open == inst.tokens.end() || inst.tokens.back() != ">")
            return;
        const auto nameEnd = static_cast<std::size_t>(open - inst.tokens.begin());
        const std::string written = join(inst.tokens, 0, nameEnd);
        for (auto& cls : found_) {
            if (!cls.isTemplate ||
                (cls.qualifiedName != inst.prefix + written && cls.qualifiedName != written))
                continue;
            const auto args = canonicalArguments(inst.tokens, nameEnd + 1, inst.tokens.size() - 1);
            std::string name = cls.qualifiedName + "<";
            // poputil::templateVertex separates arguments with ',' and no space.
            name += join(args, 0, args.size());
            name += ">";
            ScannedVertexClass::Instantiation i;
            i.name = name;
            i.type = cls.qualifiedName + join(inst.tokens, nameEnd, inst.tokens.size());
            cls.instantiations.push_back(std::move(i));
            return;
        }
    }

    void scanClass(const std::string& prefix, bool isTemplate) {
        ++pos_; // class/struct
        std::string name;
        while (pos_ < t_.size()) {
            // Attributes before the name: [[poplar::constraint("...")]], __attribute__((...)).
            if (t_[pos_] == "[" && pos_ + 1 < t_.size() && t_[pos_ + 1] == "[") {
                pos_ = skipBalanced(pos_, "[", "]");
                continue;
            }
            if (t_[pos_] == "__attribute__" || t_[pos_] == "alignas") {
                ++pos_;
                if (pos_ < t_.size() && t_[pos_] == "(")
                    pos_ = skipBalanced(pos_, "(", ")");
                continue;
            }
            if (!isIdentifier(t_[pos_]) || t_[pos_] == "final")
                break;
            name = t_[pos_++]; // the last identifier before ':' or '{' (skips attributes' names)
            if (pos_ < t_.size() && t_[pos_] == "::") {
                ++pos_;
                name.clear();
            }
        }
        if (pos_ < t_.size() && t_[pos_] == "final")
            ++pos_;
        if (pos_ < t_.size() && t_[pos_] == "<") // explicit specialisation
            pos_ = skipBalanced(pos_, "<", ">");
        bool derivesFromVertex = false;
        while (pos_ < t_.size() && t_[pos_] != "{" && t_[pos_] != ";") {
            if (kVertexBases.count(t_[pos_]))
                derivesFromVertex = true;
            ++pos_;
        }
        if (pos_ >= t_.size() || t_[pos_] == ";")
            return; // forward declaration
        if (!derivesFromVertex || name.empty()) {
            pos_ = skipBalanced(pos_, "{", "}");
            return;
        }
        ScannedVertexClass cls;
        cls.qualifiedName = prefix + name;
        cls.isTemplate = isTemplate;
        ++pos_; // '{'
        scanMembers(cls);
        found_.push_back(std::move(cls));
    }

    /// Reads member declarations up to the class's closing brace.
    void scanMembers(ScannedVertexClass& cls) {
        std::vector<std::string> stmt;
        bool isFunction = false;
        while (pos_ < t_.size()) {
            const std::string& tok = t_[pos_];
            if (tok == "}") {
                ++pos_;
                return;
            }
            if ((tok == "public" || tok == "private" || tok == "protected") &&
                pos_ + 1 < t_.size() && t_[pos_ + 1] == ":") {
                pos_ += 2;
                continue;
            }
            if (tok == "(") {
                isFunction = true;
                const bool noParameters = pos_ + 1 < t_.size() && t_[pos_ + 1] == ")";
                pos_ = skipBalanced(pos_, "(", ")");
                stmt.push_back(noParameters ? "()" : "(...)");
                continue;
            }
            if (tok == "{") {
                pos_ = skipBalanced(pos_, "{", "}");
                const bool nestedType =
                    !stmt.empty() && (stmt[0] == "struct" || stmt[0] == "class" ||
                                      stmt[0] == "enum" || stmt[0] == "union");
                if (isFunction && !nestedType) { // a member function body ends the declaration
                    stmt.clear();
                    isFunction = false;
                }
                continue; // brace initialiser or nested type body: the declaration goes on
            }
            if (tok == ";") {
                if (isFunction && isDefaultConstructorDeclaration(stmt, simpleName(cls)))
                    cls.declaresUndefinedConstructor = true;
                const bool isStatic = std::find(stmt.begin(), stmt.end(), "static") != stmt.end();
                if (!isFunction && !stmt.empty() && !kNonMemberStarts.count(stmt[0]) && !isStatic)
                    addDeclarators(stmt, cls);
                stmt.clear();
                isFunction = false;
                ++pos_;
                continue;
            }
            stmt.push_back(tok);
            ++pos_;
        }
    }

    static std::string simpleName(const ScannedVertexClass& cls) {
        const auto colon = cls.qualifiedName.rfind("::");
        return colon == std::string::npos ? cls.qualifiedName : cls.qualifiedName.substr(colon + 2);
    }

    /// `Name();` or `explicit Name();` with no body, `= default` or `= delete`.
    static bool isDefaultConstructorDeclaration(const std::vector<std::string>& stmt,
                                                const std::string& name) {
        std::size_t i = !stmt.empty() && stmt[0] == "explicit" ? 1 : 0;
        return stmt.size() == i + 2 && stmt[i] == name && stmt[i + 1] == "()";
    }

    /// Whether the source has `Name::Name` (a constructor defined outside the class).
    bool definesConstructorOutOfClass(const ScannedVertexClass& cls) const {
        const std::string name = simpleName(cls);
        for (std::size_t i = 0; i + 2 < t_.size(); ++i)
            if (t_[i] == name && t_[i + 1] == "::" && t_[i + 2] == name)
                return true;
        return false;
    }

    static void addDeclarators(const std::vector<std::string>& stmt, ScannedVertexClass& cls) {
        int angle = 0;
        std::vector<std::string> part;
        auto flush = [&] {
            // The declarator's name is the last identifier before any '=' or '['.
            std::string name;
            for (const auto& tok : part) {
                if (tok == "=" || tok == "[" || tok == ":")
                    break;
                if (isIdentifier(tok) && tok != "const" && tok != "volatile" && tok != "mutable")
                    name = tok;
            }
            if (!name.empty())
                cls.members.push_back(name);
            part.clear();
        };
        for (const auto& tok : stmt) {
            if (tok == "<")
                ++angle;
            else if (tok == ">")
                --angle;
            if (tok == "," && angle == 0)
                flush();
            else
                part.push_back(tok);
        }
        flush();
    }

    std::vector<std::string> t_;
    std::size_t pos_ = 0;
    std::vector<ScannedVertexClass> found_;
    std::vector<PendingInstantiation> instantiations_;
};

} // namespace

std::vector<ScannedVertexClass> scanVertexClasses(std::string_view source) {
    return Scanner(tokenize(stripNonCode(source))).run();
}

} // namespace tilescope::sim
