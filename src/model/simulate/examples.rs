//! The shipped skeletons, one per class of communication pattern in the seed (section 6):
//! regular and local (Jacobi), regular and global (FFT), irregular (bag of tasks).

/// An example skeleton with the parameters it is shown with.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Example {
    pub id: &'static str,
    pub name: &'static str,
    pub description: &'static str,
    pub skeleton: &'static str,
    /// Parameters text (`name = value` lines).
    pub params: &'static str,
    /// Process counts, as typed in the page.
    pub numprocs: &'static str,
}

/// The seed's Figure 5, in this language: 1-D decomposition of a 256 × 256 grid of floats;
/// even processes send first, odd ones receive first; 3.24 ms of stencil work per iteration
/// on one Perseus processor, divided among the processes.
pub const JACOBI: &str = "\
# Jacobi iteration (Grove & Coddington, Figure 5): 1-D decomposition, a row to each neighbour.
Param xsize = 256
Param iterations = 1000
Loop iterations = iterations {
  Runon c1 = procnum % 2 == 0
      & c2 = procnum % 2 != 0 {
    Runon c1 = procnum != 0 {
      Message type = MPI_Send, size = xsize * sizeof(float), from = procnum, to = procnum - 1
    }
    Message type = MPI_Send, size = xsize * sizeof(float), from = procnum, to = procnum + 1
    Message type = MPI_Recv, size = xsize * sizeof(float), from = procnum + 1, to = procnum
    Runon c1 = procnum != 0 {
      Message type = MPI_Recv, size = xsize * sizeof(float), from = procnum - 1, to = procnum
    }
  } {
    Runon c1 = procnum != numprocs - 1 {
      Message type = MPI_Recv, size = xsize * sizeof(float), from = procnum + 1, to = procnum
    }
    Message type = MPI_Recv, size = xsize * sizeof(float), from = procnum - 1, to = procnum
    Message type = MPI_Send, size = xsize * sizeof(float), from = procnum, to = procnum - 1
    Runon c1 = procnum != numprocs - 1 {
      Message type = MPI_Send, size = xsize * sizeof(float), from = procnum, to = procnum + 1
    }
  }
  Serial on perseus time = 3.24 / numprocs   # milliseconds
}
";

/// Binary-exchange FFT: a local FFT of n/numprocs points, then log2(numprocs) stages, each
/// exchanging the whole local block with the partner procnum xor 2^stage and doing one
/// butterfly per point; an allreduce (a norm) closes each transform. 5·N·log2 N flops at
/// about 50 Mflop/s (a 500 MHz Pentium III): 2e-5 ms per flop. numprocs: a power of 2.
pub const FFT: &str = "\
# Fast Fourier transform, binary exchange (regular, global communication).
Param n = 65536          # complex points (16 bytes each)
Param transforms = 20
Param flop_ms = 0.00002  # about 50 Mflop/s
Loop iterations = transforms {
  Serial time = 5 * n / numprocs * log2(n / numprocs) * flop_ms
  Loop stage iterations = log2(numprocs) {
    Message type = MPI_Isend, size = n / numprocs * 16, to = xor(procnum, pow(2, stage))
    Message type = MPI_Irecv, size = n / numprocs * 16, from = xor(procnum, pow(2, stage))
    Message type = MPI_Wait
    Serial time = 5 * n / numprocs * flop_ms
  }
  Message type = MPI_Allreduce, size = 8
}
";

/// A task farm: process 0 hands out `tasks` tasks of random length (exponential, mean
/// `task_ms`) one at a time to whichever worker returns a result first; tag 1 is a task,
/// tag 0 tells a worker to stop. Needs at least 2 processes (with 1 it deadlocks: the master
/// waits for results nobody sends).
pub const BAG_OF_TASKS: &str = "\
# Bag of tasks (irregular communication): a master and workers.
Param tasks = 400
Param task_ms = 20
Runon master = procnum == 0 {
  Loop w iterations = numprocs - 1 {
    Message type = MPI_Send, size = 1024, to = w + 1, tag = w < tasks
  }
  Loop k iterations = tasks {
    Message type = MPI_Recv, size = 4096, from = any
    Message type = MPI_Send, size = 1024, to = source, tag = k + numprocs - 1 < tasks
  }
} {
  Loop iterations = tasks + 1 {
    Message type = MPI_Recv, size = 1024, from = 0
    Runon stop = tag == 0 {
      Break
    }
    Serial time = exponential(task_ms)
    Message type = MPI_Send, size = 4096, to = 0
  }
}
";

pub const EXAMPLES: [Example; 3] = [
    Example {
        id: "jacobi",
        name: "Jacobi iteration (Figure 5)",
        description:
            "Regular, local: each process swaps a 1 KB row with each neighbour, then computes 3.24 ms / numprocs.",
        skeleton: JACOBI,
        params: "xsize = 256\niterations = 1000",
        numprocs: "2 4 8 16 32 64",
    },
    Example {
        id: "fft",
        name: "Fast Fourier transform",
        description: "Regular, global: log2(numprocs) exchange stages with partners procnum xor 2^stage.",
        skeleton: FFT,
        params: "n = 65536\ntransforms = 20",
        numprocs: "2 4 8 16 32 64",
    },
    Example {
        id: "bag",
        name: "Bag of tasks",
        description: "Irregular: a master hands out random-length tasks to whichever worker is free.",
        skeleton: BAG_OF_TASKS,
        params: "tasks = 400\ntask_ms = 20",
        numprocs: "2 4 8 16 32 64",
    },
];
