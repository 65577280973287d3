#pragma once
// The file popc writes (OUT.gp) and Graph::addCodelets loads: a text header naming the format,
// the sources and one compiled codelet library per IPU target, followed by the libraries' bytes.
//
//   TILESCOPE-CODELETS 1\n
//   source <path>\n               (one line per source, informational)
//   object <target> <size>\n      (one line per target: ipu1, ipu2 or ipu21)
//   end\n
//   <size bytes of each object, in the order of the object lines>
//
// Each object is a host shared library exporting tilescope_register_codelets.

#include <string>
#include <vector>

namespace tilescope::sim {

struct CodeletObjectFile {
    struct Object {
        std::string target;
        std::string bytes;
    };
    std::vector<std::string> sources;
    std::vector<Object> objects;

    /// True if `head` (the first bytes of a file) starts with the format's magic line.
    static bool hasMagic(const std::string& head);
    /// Reads `path`; throws poplar::graph_program_compilation_error if it is not such a file.
    static CodeletObjectFile read(const std::string& path);
    /// Writes the file; throws poplar::poplar_error if it cannot.
    void write(const std::string& path) const;
};

} // namespace tilescope::sim
