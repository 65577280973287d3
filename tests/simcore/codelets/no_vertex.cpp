// A file without vertex classes.
int helper(int x) {
    return x + 1;
}
