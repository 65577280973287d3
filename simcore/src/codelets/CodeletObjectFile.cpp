#include "tilescope/sim/CodeletObjectFile.hpp"

#include "poplar/exceptions.hpp"

#include <fstream>
#include <sstream>

namespace tilescope::sim {

namespace {

const std::string kMagic = "TILESCOPE-CODELETS 1\n";

[[noreturn]] void malformed(const std::string& path, const std::string& why) {
    throw poplar::graph_program_compilation_error(
        "addCodelets: '" + path + "' is not a codelet object written by popc (" + why + ")");
}

} // namespace

bool CodeletObjectFile::hasMagic(const std::string& head) {
    return head.compare(0, kMagic.size(), kMagic) == 0;
}

CodeletObjectFile CodeletObjectFile::read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw poplar::poplar_error("addCodelets: cannot read codelet object '" + path + "'");
    std::string line;
    if (!std::getline(in, line) || line + "\n" != kMagic)
        malformed(path, "no TILESCOPE-CODELETS header");
    CodeletObjectFile file;
    std::vector<std::size_t> sizes;
    bool ended = false;
    while (!ended && std::getline(in, line)) {
        std::istringstream fields(line);
        std::string kind;
        fields >> kind;
        if (kind == "end") {
            ended = true;
        } else if (kind == "source") {
            file.sources.push_back(line.size() > 7 ? line.substr(7) : std::string());
        } else if (kind == "object") {
            Object o;
            std::size_t size = 0;
            if (!(fields >> o.target >> size))
                malformed(path, "bad object line '" + line + "'");
            file.objects.push_back(std::move(o));
            sizes.push_back(size);
        } else {
            malformed(path, "unknown header line '" + line + "'");
        }
    }
    if (!ended)
        malformed(path, "header has no end line");
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        file.objects[i].bytes.resize(sizes[i]);
        if (!in.read(file.objects[i].bytes.data(), static_cast<std::streamsize>(sizes[i])))
            malformed(path, "truncated object for " + file.objects[i].target);
    }
    return file;
}

void CodeletObjectFile::write(const std::string& path) const {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out)
        throw poplar::poplar_error("cannot write '" + path + "'");
    out << kMagic;
    for (const auto& s : sources)
        out << "source " << s << "\n";
    for (const auto& o : objects)
        out << "object " << o.target << " " << o.bytes.size() << "\n";
    out << "end\n";
    for (const auto& o : objects)
        out.write(o.bytes.data(), static_cast<std::streamsize>(o.bytes.size()));
    if (!out.flush())
        throw poplar::poplar_error("cannot write '" + path + "'");
}

} // namespace tilescope::sim
