"""A model trained on the device and its copy trained by torch on the CPU on the same batches,
step for step, for the tests that compare the two afterwards."""
import poptorch


def train_side_by_side(model, reference, ipu_optimizer, cpu_optimizer, make_batch, iterations,
                       per_iteration, steps):
    """Runs `steps` device steps of `iterations` device iterations, each of `per_iteration`
    samples from `make_batch(n)`, and the same batches one iteration at a time on `reference`
    with `cpu_optimizer`. Returns the training model."""
    training = poptorch.trainingModel(model, poptorch.Options().deviceIterations(iterations),
                                      ipu_optimizer)
    for _ in range(steps):
        x, y = make_batch(per_iteration * iterations)
        training(x, y)
        for i in range(iterations):
            part = slice(per_iteration * i, per_iteration * (i + 1))
            cpu_optimizer.zero_grad()
            reference(x[part], y[part])[1].backward()
            cpu_optimizer.step()
    return training
