"""The tolerance poptorch's results on the simulated IPU are held to against torch's on the CPU:
float32 sums taken in another order differ in their last bits."""
import torch

RTOL, ATOL = 1e-4, 1e-5


def assert_same(a, b):
    torch.testing.assert_close(a, b, rtol=RTOL, atol=ATOL)
