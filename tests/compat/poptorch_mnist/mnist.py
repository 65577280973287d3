"""Training a small CNN to classify handwritten-style digits on the IPU, written the way
Graphcore's PopTorch tutorials write it: the data in torchvision's layout through
poptorch.DataLoader, poptorch.Options with device iterations, a model whose forward returns
(output, loss), poptorch.trainingModel with SGD, then poptorch.inferenceModel for the accuracy.
The images are read from ./mnist_data (an ImageFolder with train/ and test/)."""
import torch
import torch.nn as nn
import torchvision
import poptorch

# Hyperparameters
batch_size = 8
test_batch_size = 20
device_iterations = 10
epochs = 3
learning_rate = 0.01


class Block(nn.Module):
    def __init__(self, in_channels, num_filters, kernel_size, pool_size):
        super(Block, self).__init__()
        self.conv = nn.Conv2d(in_channels, num_filters, kernel_size=kernel_size)
        self.pool = nn.MaxPool2d(kernel_size=pool_size)
        self.relu = nn.ReLU()

    def forward(self, x):
        x = self.conv(x)
        x = self.pool(x)
        x = self.relu(x)
        return x


class Network(nn.Module):
    def __init__(self):
        super(Network, self).__init__()
        self.layer1 = Block(1, 8, 3, 2)
        self.layer2 = Block(8, 16, 3, 2)
        self.layer3 = nn.Linear(16 * 5 * 5, 64)
        self.layer3_act = nn.ReLU()
        self.layer4 = nn.Linear(64, 10)
        self.softmax = nn.LogSoftmax(1)

    def forward(self, x):
        x = self.layer1(x)
        x = self.layer2(x)
        x = x.view(-1, 16 * 5 * 5)
        x = self.layer3_act(self.layer3(x))
        x = self.layer4(x)
        x = self.softmax(x)
        return x


class TrainingModelWithLoss(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model
        self.loss = torch.nn.NLLLoss()

    def forward(self, args, loss_inputs=None):
        output = self.model(args)
        if loss_inputs is None:
            return output
        loss = self.loss(output, loss_inputs)
        return output, loss


def accuracy(predictions, labels):
    _, ind = torch.max(predictions, 1)
    labels = labels[-predictions.size()[0]:]
    return torch.sum(torch.eq(ind, labels)).item() * 100.0 / labels.size()[0]


transform = torchvision.transforms.Compose([
    torchvision.transforms.Grayscale(),
    torchvision.transforms.ToTensor(),
    torchvision.transforms.Normalize((0.1307,), (0.3081,)),
])

if __name__ == "__main__":
    torch.manual_seed(0)
    opts = poptorch.Options().deviceIterations(device_iterations)
    training_data = poptorch.DataLoader(
        opts,
        torchvision.datasets.ImageFolder("mnist_data/train", transform=transform),
        batch_size=batch_size,
        shuffle=True,
        drop_last=True)

    model = Network()
    model_with_loss = TrainingModelWithLoss(model)
    training_model = poptorch.trainingModel(
        model_with_loss,
        opts,
        optimizer=poptorch.optim.SGD(model.parameters(), lr=learning_rate, momentum=0.9))

    epoch_losses = []
    for epoch in range(epochs):
        total_loss = 0.0
        for data, labels in training_data:
            preds, losses = training_model(data, labels)
            total_loss += float(torch.mean(losses))
        epoch_losses.append(total_loss / len(training_data))
        print("epoch %d: loss %.4f" % (epoch + 1, epoch_losses[-1]))
    training_model.detachFromDevice()

    test_data = poptorch.DataLoader(
        poptorch.Options(),
        torchvision.datasets.ImageFolder("mnist_data/test", transform=transform),
        batch_size=test_batch_size,
        shuffle=True,
        drop_last=False)
    inference_model = poptorch.inferenceModel(model)
    sum_acc = 0.0
    for data, labels in test_data:
        output = inference_model(data)
        sum_acc += accuracy(output, labels)
    print("loss fell: %s" % (epoch_losses[-1] < 0.5 * epoch_losses[0]))
    print("test accuracy: %.1f%%" % (sum_acc / len(test_data)))
