// Found through the -I flag the codelet tests pass ("-I <codelets>/include").
#pragma once
constexpr int kFillScale = 10;
