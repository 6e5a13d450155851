// A fresh folder for each test, removed afterwards (tests that write files).
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>

#include "support/process.hpp"

namespace rope::test {

class TempDirTest : public ::testing::Test {
protected:
    void SetUp() override {
        char tmpl[] = "/tmp/rope-test-XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir_ = tmpl;
    }
    void TearDown() override { run_process({"/bin/rm", "-rf", dir_}); }
    std::string path(const std::string& name) const { return dir_ + "/" + name; }
    std::string dir_;
};

}  // namespace rope::test
