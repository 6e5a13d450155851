#include "cli/csv_writer.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "cli/arguments.hpp"
#include "rope/number_format.hpp"

namespace rope::cli {

CsvWriter::CsvWriter(int fd, std::size_t buffer_bytes) : fd_(fd), buffer_(new char[buffer_bytes]), capacity_(buffer_bytes) {}

void CsvWriter::grow_to(std::size_t bytes) {
    if (bytes <= capacity_) return;
    flush();
    buffer_.reset(new char[bytes]);
    capacity_ = bytes;
}

CsvWriter::~CsvWriter() {
    // Destructors must not throw: a failed final flush is reported by an explicit flush().
    try {
        flush();
    } catch (...) {
    }
}

void CsvWriter::reserve(std::size_t bytes) {
    if (used_ + bytes > capacity_) flush();
}

// Callers reserve lead_room() besides their own bytes: the leading column goes before a row's first cell.
void CsvWriter::separator() {
    if (row_started_) {
        buffer_[used_++] = ',';
        return;
    }
    row_started_ = true;
    if (lead_column_.empty()) return;
    const std::string& first = in_header_ ? lead_column_ : lead_value_;
    std::memcpy(buffer_.get() + used_, first.data(), first.size());
    used_ += first.size();
    buffer_[used_++] = ',';
}

void CsvWriter::lead_with(std::string_view column, std::string_view value) {
    lead_column_ = column;
    lead_value_ = value;
}

CsvWriter& CsvWriter::number(double value) {
    reserve(kMaxNumberChars + 2 + lead_room());
    separator();
    used_ = static_cast<std::size_t>(format_number(buffer_.get() + used_, value) - buffer_.get());
    return *this;
}

CsvWriter& CsvWriter::integer(std::int64_t value) {
    reserve(kMaxNumberChars + 2 + lead_room());
    separator();
    used_ = static_cast<std::size_t>(format_integer(buffer_.get() + used_, value) - buffer_.get());
    return *this;
}

CsvWriter& CsvWriter::text(std::string_view value) {
    if (used_ + value.size() + 2 + lead_room() > capacity_) flush();
    grow_to(value.size() + 2 + lead_room());
    separator();
    std::memcpy(buffer_.get() + used_, value.data(), value.size());
    used_ += value.size();
    return *this;
}

void CsvWriter::end_row() {
    reserve(1);
    buffer_[used_++] = '\n';
    row_started_ = false;
}

void CsvWriter::header(std::initializer_list<std::string_view> columns) {
    if (header_written_) return;
    in_header_ = true;
    for (std::string_view c : columns) text(c);
    end_row();
    in_header_ = false;
    header_written_ = true;
}

void CsvWriter::rows(std::string_view formatted) {
    if (!lead_column_.empty()) {  // each line after the leading column's value
        for (std::size_t at = 0; at < formatted.size();) {
            const std::size_t end = std::min(formatted.find('\n', at), formatted.size() - 1) + 1;
            text(formatted.substr(at, end - at - (formatted[end - 1] == '\n' ? 1 : 0)));
            end_row();
            at = end;
        }
        return;
    }
    if (used_ + formatted.size() > capacity_) flush();
    grow_to(formatted.size());
    std::memcpy(buffer_.get() + used_, formatted.data(), formatted.size());
    used_ += formatted.size();
}

void CsvWriter::flush() {
    std::size_t done = 0;
    while (done < used_) {
        const ssize_t n = ::write(fd_, buffer_.get() + done, used_ - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            used_ = 0;
            throw RuntimeFailure(std::string("writing the table to standard output failed: ") + std::strerror(errno));
        }
        done += static_cast<std::size_t>(n);
    }
    used_ = 0;
}

}  // namespace rope::cli
