# Builds a small experiment with Extra-P's own classes and saves it with Extra-P's writer:
# int64 and 2-D value arrays, a nested call path, integer coordinates.
import numpy as np
from extrap.entities.experiment import Experiment
from extrap.entities.parameter import Parameter
from extrap.entities.callpath import Callpath
from extrap.entities.metric import Metric
from extrap.entities.coordinate import Coordinate
from extrap.entities.measurement import Measurement
from extrap.fileio.experiment_io import write_experiment
e = Experiment()
e.add_parameter(Parameter('p'))
cps = [Callpath('main'), Callpath('main->solve')]
m = Metric('visits')
for cp in cps: e.add_callpath(cp)
e.add_metric(m)
for c in (2, 4): e.add_coordinate(Coordinate(c))
e.add_measurement(Measurement(Coordinate(2), cps[0], m, np.array([3, 4, 5], dtype=np.int64), keep_values=True))
e.add_measurement(Measurement(Coordinate(4), cps[0], m, np.array([6, 7], dtype=np.int64), keep_values=True))
e.add_measurement(Measurement(Coordinate(2), cps[1], m, np.array([[1.5, 2.5, 3.5], [4.5, 5.5, 6.5]]), keep_values=True))
e.add_measurement(Measurement(Coordinate(4), cps[1], m, [2.25], keep_values=False))
write_experiment(e, 'synthetic.values.extra-p')
