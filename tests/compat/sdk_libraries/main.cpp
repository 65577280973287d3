// Linked against one SDK library at a time (see the Makefile): each must link alone, with its own
// dependencies pulled in, and load when the program starts.
#include <iostream>

int main() {
  std::cout << "loaded" << std::endl;
  return 0;
}
