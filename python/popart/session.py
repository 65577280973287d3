"""popart.InferenceSession and popart.TrainingSession over the native session cores, with
PopART's Python parts: initAnchorArrays (arrays shaped by the anchors' return types),
OutOfMemoryException, and getReport through pva."""
import numpy as np

import popart
from popart.popart_core import _InferenceSessionCore, _TrainingSessionCore


class OutOfMemoryException(popart.popart_exception):
    """The compiled graph does not fit the device's tile memory (prepareDevice)."""

    def __init__(self, message, summaryReport="", profilePath=""):
        super().__init__(message)
        self._summaryReport = summaryReport
        self._profilePath = profilePath

    def getSummaryReport(self):
        return self._summaryReport

    def getProfilePath(self):
        """The profile.pop written for the failed compile ("" without autoReport)."""
        return self._profilePath


def _anchorArrays(session):
    """The anchor arrays of a session: one sample's shape, preceded by batchesPerStep (ALL),
    batchesPerStep / N (EVERYN) and the accumulation and replication factors where above 1."""
    arrays = {}
    flow = session.dataFlow
    for anchor in flow.anchors():
        info = session.getInfo(anchor)
        art = flow.art(anchor)
        shape = [session.replicationFactor]
        if art.id() == popart.AnchorReturnTypeId.All:
            shape = [flow.batchesPerStep(), session.accumulationFactor] + shape
        elif art.id() == popart.AnchorReturnTypeId.EveryN:
            if flow.batchesPerStep() % art.rp() != 0:
                raise popart.popart_exception(
                    f"anchor '{anchor}': return period {art.rp()} does not divide "
                    f"batchesPerStep {flow.batchesPerStep()}")
            shape = [flow.batchesPerStep() // art.rp(), session.accumulationFactor] + shape
        shape = [d for d in shape if d != 1] + list(info.shape())
        arrays[anchor] = np.empty(shape, dtype=info.data_type_lcase())
    return arrays


class _Session:
    """What both sessions add to their native core; other attributes are the core's."""

    def __init__(self, core, dataFlow, userOptions):
        self._core = core
        self._dataFlow = dataFlow
        self._options = userOptions

    def __getattr__(self, name):
        return getattr(self._core, name)

    @property
    def dataFlow(self):
        return self._dataFlow

    @property
    def replicationFactor(self):
        o = self._options
        return o.replicatedGraphCount if o.enableReplicatedGraphs else 1

    @property
    def accumulationFactor(self):
        o = self._options
        return o.accumulationFactor if o.enableGradientAccumulation else 1

    def initAnchorArrays(self):
        return _anchorArrays(self)

    def getReport(self):
        """The session's report as a pva.Report (needs autoReport in engineOptions)."""
        import pva
        path = self._core.getReportPath()
        if not path:
            raise popart.popart_exception(
                "getReport: the session wrote no report; set engineOptions "
                "{'autoReport.all': 'true'} (or POPLAR_ENGINE_OPTIONS)")
        return pva.openReport(path)


class InferenceSession(_Session):
    """Runs an ONNX model forward on a device (PopART's InferenceSession)."""

    def __init__(self, fnModel, dataFlow, deviceInfo, inputShapeInfo=None, patterns=None,
                 userOptions=None, name="inference"):
        userOptions = userOptions if userOptions is not None else popart.SessionOptions()
        core = _InferenceSessionCore(fnModel, dataFlow, deviceInfo,
                                     inputShapeInfo or popart.InputShapeInfo(), userOptions,
                                     patterns or popart.Patterns(), name)
        super().__init__(core, dataFlow, userOptions)


class TrainingSession(_Session):
    """Trains an ONNX model that computes `loss` with `optimizer` (PopART's TrainingSession)."""

    def __init__(self, fnModel, dataFlow, loss, optimizer, deviceInfo, inputShapeInfo=None,
                 patterns=None, userOptions=None, name="training"):
        userOptions = userOptions if userOptions is not None else popart.SessionOptions()
        core = _TrainingSessionCore(fnModel, dataFlow, loss, optimizer, deviceInfo,
                                    inputShapeInfo or popart.InputShapeInfo(), userOptions,
                                    patterns or popart.Patterns(), name)
        super().__init__(core, dataFlow, userOptions)
