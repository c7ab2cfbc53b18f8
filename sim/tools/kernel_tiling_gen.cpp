// The kernel-side tiling header of one op, generated from the tiling classes its
// host header registers (BEGIN_TILING_DATA_DEF ... REGISTER_TILING_DATA_CLASS), as
// CANN's op compiler generates it (asc-devkit tools/build/asc_op_compile_base/
// asc_op_compiler/get_op_tiling.py, gen_dynamic_shape) and force-includes into
// the kernel: a class per tiling struct with the host's field layout, placeholders
// included, then InitTilingData and the GET_TILING_DATA macros.
//
// Built by ascend_xent_kernel_tiling() with the op's host headers force-included,
// so that their registrations are in this program's registry.
// Usage: kernel_tiling_gen <op type> <output header>
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "register/tilingdata_base.h"

namespace {

using Registry = ascend_sim::twin::TilingDataRegistry;

struct StructDef {
    std::string name;
    bool isApi;  // one of the advanced APIs' structs, declared in AscendC::tiling by kernel_tiling.h
    int depth;
    std::vector<optiling::FieldInfo> fields;
};

[[noreturn]] void die(const std::string& msg) {
    std::fprintf(stderr, "kernel_tiling_gen: %s\n", msg.c_str());
    std::exit(1);
}

std::shared_ptr<ascend_sim::twin::TilingDataBase> make(const std::string& opType) {
    return Registry::GetInstance().CreateTilingDataInstance(opType.c_str());
}

// CANN's get_struct_tiling_info: a nested struct is found as "<type>OpApi" (an
// advanced API's) or "<type>Op" (the op's own), deepest first in the output.
void collect_structs(const std::vector<optiling::FieldInfo>& fields, const std::string& owner, int depth,
                     std::map<std::string, StructDef>& out) {
    ++depth;
    for (const optiling::FieldInfo& f : fields) {
        if (std::string(f.classType_) != "2") continue;
        const std::string type = f.structType_;
        if (out.count(type)) continue;
        bool isApi = true;
        auto inst = make(type + "OpApi");
        if (!inst) {
            isApi = false;
            inst = make(type + "Op");
        }
        if (!inst)
            die(owner + "." + f.name_ + " is a " + type + ", which is not registered: CANN finds a nested tiling " +
                "struct by REGISTER_TILING_DATA_CLASS(" + type + "Op, " + type + ")");
        out[type] = StructDef{type, isApi, depth, inst->GetFieldInfo()};
        collect_structs(out[type].fields, type, depth, out);
    }
}

std::string field_type(const optiling::FieldInfo& f, const std::map<std::string, StructDef>& structs) {
    if (std::string(f.classType_) != "2") return f.dtype_;
    return (structs.at(f.structType_).isApi ? "AscendC::tiling::" : "") + std::string(f.structType_);
}

// get_struct_shape (nested, zero-initialised members) and get_dynamic_tiling_struct (top level).
std::string class_def(const std::string& name, const std::vector<optiling::FieldInfo>& fields,
                      const std::map<std::string, StructDef>& structs, bool topLevel) {
    std::ostringstream s;
    s << "class " << name << "\n{\npublic:\n";
    for (const optiling::FieldInfo& f : fields) {
        const std::string kind = f.classType_;
        s << "    " << field_type(f, structs) << " " << f.name_;
        if (kind == "1") s << "[" << f.arrSize_ << "]";
        if (!topLevel && kind == "0") s << " = 0";
        if (!topLevel && kind == "1") s << " = {}";
        s << ";\n";
    }
    s << (topLevel ? "}__attribute__((__may_alias__));\n\n" : "};\n\n");
    return s.str();
}

std::string macros(const std::string& cls) {
    std::ostringstream s;
    s << "template <class T>\n"
         "inline __aicore__ void InitTilingData(const __gm__ uint8_t* p_tilingdata, T* tilingdata)\n"
         "{\n"
         "    ascend_sim::detail::tiling_copy(\"GET_TILING_DATA\", tilingdata, p_tilingdata, sizeof(T));\n"
         "}\n\n"
         "#undef GET_TILING_DATA\n#undef GET_TILING_DATA_WITH_STRUCT\n#undef GET_TILING_DATA_MEMBER\n"
         "#define GET_TILING_DATA(tiling_data, tiling_arg) \\\n"
         "    " << cls << " tiling_data; \\\n"
         "    InitTilingData<" << cls << ">(tiling_arg, &tiling_data);\n"
         "#define GET_TILING_DATA_WITH_STRUCT(tiling_struct, tiling_data, tiling_arg) \\\n"
         "    REGISTER_TILINGDATA_SIZE(tiling_struct, __COUNTER__); \\\n"
         "    tiling_struct tiling_data; \\\n"
         "    InitTilingData<tiling_struct>(tiling_arg, &tiling_data);\n"
         "#define GET_TILING_DATA_MEMBER(tiling_type, member, var, tiling) \\\n"
         "    REGISTER_TILINGDATA_SIZE(tiling_type, __COUNTER__); \\\n"
         "    decltype(((tiling_type*)0)->member) var; \\\n"
         "    size_t offset##var = (size_t)(&((tiling_type*)0)->member); \\\n"
         "    InitTilingData<decltype(((tiling_type*)0)->member)>(tiling + offset##var, &var);\n";
    return s.str();
}

std::string upper(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::toupper(c)); });
    return s;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) die("usage: kernel_tiling_gen <op type> <output header>");
    const std::string opType = argv[1];
    auto top = make(opType);
    if (!top) die("no tiling class is registered for op type " + opType + " (REGISTER_TILING_DATA_CLASS(" + opType +
                  ", <class>) in the host headers given)");
    const std::string cls = top->GetTilingClassName();

    // The op's class, then the classes registered for its tiling keys ("<op>_<key>").
    std::vector<std::pair<std::string, std::vector<optiling::FieldInfo>>> tops = {{cls, top->GetFieldInfo()}};
    for (const std::string& name : Registry::GetInstance().op_types()) {
        const std::string key = name.substr(std::min(name.size(), opType.size() + 1));
        if (name.rfind(opType + "_", 0) != 0 || key.empty() ||
            !std::all_of(key.begin(), key.end(), [](unsigned char c) { return std::isdigit(c) != 0; }))
            continue;
        auto keyed = make(name);
        const std::string keyedCls = keyed->GetTilingClassName();
        bool seen = false;
        for (const auto& t : tops) seen = seen || t.first == keyedCls;
        if (!seen) tops.push_back({keyedCls, keyed->GetFieldInfo()});
    }
    std::map<std::string, StructDef> structs;
    for (const auto& t : tops) collect_structs(t.second, t.first, 0, structs);

    std::ostringstream out;
    const std::string guard = "__" + upper(cls) + "_HEADER__";
    out << "// Generated by kernel_tiling_gen from the host registration of " << opType << ": do not edit.\n"
        << "#ifndef " << guard << "\n#define " << guard << "\n\n"
        << "#include \"kernel_tiling/kernel_tiling.h\"\n"
        << "#define REGISTER_TILINGDATA_SIZE(tiling_struct, counter)\n\n";
    int maxDepth = 0;
    for (const auto& s : structs) maxDepth = std::max(maxDepth, s.second.depth);
    for (int d = maxDepth; d >= 1; --d)
        for (const auto& s : structs)
            if (s.second.depth == d && !s.second.isApi) out << class_def(s.first, s.second.fields, structs, false);
    for (const auto& t : tops) out << class_def(t.first, t.second, structs, true);
    out << macros(cls) << "\n#endif  // " << guard << "\n";

    std::ofstream file(argv[2]);
    file << out.str();
    if (!file) die(std::string("cannot write ") + argv[2]);
    return 0;
}
