#include "export/still_writers.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "export/export.hpp"
#include "export/svg_writer.hpp"
#include "io/atomic_file.hpp"
#include "rope/number_format.hpp"

namespace rope::exporting {

void write_svg_file(const StillFile& f, ExportResult& result) {
    io::write_file_atomically(f.options.path, render_svg(f.figure.list, f.measure, f.title, f.metadata, f.alt));
    result.pixel_width = f.options.width;
    result.pixel_height = f.options.height;
}

void write_csv_file(const StillFile& f, ExportResult&) { io::write_file_atomically(f.options.path, table_csv(f.figure.table)); }

namespace {

std::string csv_cell(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (const char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

}  // namespace

namespace {

// The rows to write: all of them, or `count` spread evenly from the first to the last.
std::vector<std::size_t> rows_to_write(std::size_t all, std::size_t count) {
    std::vector<std::size_t> rows;
    const std::size_t shown = count == 0 ? all : std::min(all, count);
    for (std::size_t i = 0; i < shown; ++i) rows.push_back(count == 0 || shown == 1 ? i : i * (all - 1) / (shown - 1));
    return rows;
}

std::string csv_of_rows(const figures::DataTable& t, std::size_t count) {
    std::string out;
    if (!t.text_rows.empty()) {
        for (std::size_t c = 0; c < t.columns.size(); ++c) out += (c ? "," : "") + csv_cell(t.columns[c]);
        out += '\n';
        for (const std::size_t r : rows_to_write(t.text_rows.size(), count)) {
            const auto& row = t.text_rows[r];
            for (std::size_t c = 0; c < row.size(); ++c) out += (c ? "," : "") + csv_cell(row[c]);
            out += '\n';
        }
        return out;
    }
    const bool labelled = !t.label_column.empty(), named = !t.model_names.empty();
    if (labelled) out += t.label_column + (t.columns.empty() ? "" : ",");
    for (std::size_t c = 0; c < t.columns.size(); ++c) out += (c ? "," : "") + t.columns[c];
    const bool b_apart = named && !labelled && t.model_names.size() > 1;  // B's name on A's rows
    if (named) out += ",model_name";
    if (b_apart) out += ",model_b_name";
    out += '\n';
    char buf[kMaxNumberChars];
    for (const std::size_t r : rows_to_write(t.rows(), count)) {
        const std::string& label = r < t.labels.size() ? t.labels[r] : "";
        if (labelled) out += label + (t.values.empty() ? "" : ",");
        for (std::size_t c = 0; c < t.values.size(); ++c) {
            if (c) out += ',';
            const double v = t.values[c][r];
            if (labelled && std::isnan(v)) continue;
            const std::vector<std::string>* names = c < t.words.size() && !t.words[c].empty() ? &t.words[c] : nullptr;
            if (names && v >= 0 && v < static_cast<double>(names->size()) && v == std::floor(v))
                out += csv_cell((*names)[static_cast<std::size_t>(v)]);
            else
                out.append(buf, format_number(buf, v));
        }
        // the row's model by name: B's for a `b` row, else A's
        if (named) out += "," + csv_cell(label == "b" && t.model_names.size() > 1 ? t.model_names[1] : t.model_names[0]);
        if (b_apart) out += "," + csv_cell(t.model_names[1]);
        out += '\n';
    }
    return out;
}

}  // namespace

std::string table_csv(const figures::DataTable& t) { return csv_of_rows(t, 0); }

std::string table_csv_sample(const figures::DataTable& t, std::size_t count) { return csv_of_rows(t, count == 0 ? 1 : count); }

}  // namespace rope::exporting
