"""poptorch.optim: torch's optimizers with PopTorch's extra arguments (loss_scaling,
velocity_scaling, accumulator types, max_grad_norm), and LAMB. On the CPU they step as torch's
do; a trainingModel maps them onto the PopART face's optimizers (poptorch._optimizers)."""

import torch

from .errors import Error


class _PoptorchExtras:
    """PopTorch's extra optimizer arguments, kept on the optimizer."""

    def _extras(self, loss_scaling, accum_type=None, first_order_momentum_accum_type=None,
                second_order_momentum_accum_type=None, max_grad_norm=None):
        if loss_scaling is not None and float(loss_scaling) <= 0.0:
            raise Error(f"poptorch.optim.{type(self).__name__}: loss_scaling must be positive")
        self.loss_scaling = loss_scaling
        self.accum_type = accum_type
        self.first_order_momentum_accum_type = first_order_momentum_accum_type
        self.second_order_momentum_accum_type = second_order_momentum_accum_type
        self.max_grad_norm = max_grad_norm


class SGD(torch.optim.SGD, _PoptorchExtras):
    """torch.optim.SGD plus loss_scaling and velocity_scaling (PopART's SGD)."""

    def __init__(self, params, lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False,
                 maximize=False, foreach=None, loss_scaling=None, velocity_scaling=None,
                 use_combined_accum=None, max_grad_norm=None):
        if maximize:
            raise Error("poptorch.optim.SGD: maximize=True is not supported")
        super().__init__(params, lr=lr, momentum=momentum, dampening=dampening,
                         weight_decay=weight_decay, nesterov=nesterov)
        for group in self.param_groups:
            group.setdefault("velocity_scaling", velocity_scaling)
        self._extras(loss_scaling, max_grad_norm=max_grad_norm)


class Adam(torch.optim.Adam, _PoptorchExtras):
    """torch.optim.Adam (weight decay as L2 regularisation) plus PopTorch's arguments."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                 amsgrad=False, foreach=None, maximize=False, capturable=False, loss_scaling=None,
                 accum_type=None, first_order_momentum_accum_type=None,
                 second_order_momentum_accum_type=None, max_grad_norm=None):
        super().__init__(params, lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                         amsgrad=amsgrad)
        self._extras(loss_scaling, accum_type, first_order_momentum_accum_type,
                     second_order_momentum_accum_type, max_grad_norm)


class AdamW(torch.optim.AdamW, _PoptorchExtras):
    """torch.optim.AdamW (decoupled weight decay) plus PopTorch's arguments."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, foreach=None, maximize=False, capturable=False, loss_scaling=None,
                 bias_correction=True, accum_type=None, first_order_momentum_accum_type=None,
                 second_order_momentum_accum_type=None, max_grad_norm=None):
        super().__init__(params, lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                         amsgrad=amsgrad)
        self._extras(loss_scaling, accum_type, first_order_momentum_accum_type,
                     second_order_momentum_accum_type, max_grad_norm)


class RMSprop(torch.optim.RMSprop, _PoptorchExtras):
    """torch.optim.RMSprop plus PopTorch's arguments (PopART's Adaptive optimizer)."""

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0.0, momentum=0.0,
                 centered=False, foreach=None, maximize=False, differentiable=False,
                 loss_scaling=None, accum_type=None, first_order_momentum_accum_type=None,
                 second_order_momentum_accum_type=None):
        super().__init__(params, lr=lr, alpha=alpha, eps=eps, weight_decay=weight_decay,
                         momentum=momentum, centered=centered)
        self._extras(loss_scaling, accum_type, first_order_momentum_accum_type,
                     second_order_momentum_accum_type)


class LAMB(torch.optim.Optimizer, _PoptorchExtras):
    """LAMB (You et al., "Large Batch Optimization for Deep Learning"): Adam's update r with
    decoupled weight decay, scaled per weight by the trust ratio ||w|| / ||r + wd w|| (||w||
    clipped to max_weight_norm); bias_correction=False drops Adam's bias corrections."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 bias_correction=True, loss_scaling=None, max_weight_norm=None, accum_type=None,
                 first_order_momentum_accum_type=None, second_order_momentum_accum_type=None,
                 max_grad_norm=None):
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        max_weight_norm=max_weight_norm)
        super().__init__(params, defaults)
        self.bias_correction = bias_correction
        self._extras(loss_scaling, accum_type, first_order_momentum_accum_type,
                     second_order_momentum_accum_type, max_grad_norm)

    @torch.no_grad()
    def step(self, closure=None):
        loss = closure() if closure is not None else None
        for group in self.param_groups:
            b1, b2 = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if not state:
                    state["step"] = 0
                    state["m"] = torch.zeros_like(p)
                    state["v"] = torch.zeros_like(p)
                state["step"] += 1
                m, v, t = state["m"], state["v"], state["step"]
                m.mul_(b1).add_(p.grad, alpha=1 - b1)
                v.mul_(b2).addcmul_(p.grad, p.grad, value=1 - b2)
                mhat, vhat = (m / (1 - b1**t), v / (1 - b2**t)) if self.bias_correction else (m, v)
                update = mhat / (vhat.sqrt() + group["eps"]) + group["weight_decay"] * p
                w_norm = p.norm()
                if group["max_weight_norm"] is not None:
                    w_norm = w_norm.clamp(max=group["max_weight_norm"])
                u_norm = update.norm()
                ratio = (w_norm / u_norm) if (w_norm > 0 and u_norm > 0) else 1.0
                p.sub_(group["lr"] * ratio * update)
        return loss


__all__ = ["SGD", "Adam", "AdamW", "RMSprop", "LAMB"]
