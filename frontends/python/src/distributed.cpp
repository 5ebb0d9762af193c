// Collectives from Python: _C.Communicator and _C.Work, which kernforge.distributed
// (kernforge/distributed/) builds torch.distributed's functions on, over the C ABI's
// communicators and works (2.7), split and abort (2.8). Every call that may wait (joining, a
// split, a synchronous collective, Work.wait, releasing an unfinished work) runs without the
// GIL. Failures raise as every C call does (errors.cpp): KF_TIMEOUT is TimeoutError,
// KF_INVALID_ARGUMENT ValueError, the engine's failures RuntimeError.
//
// Lifetime: the kf_comm_t is shared by the Communicator and its Works, and destroyed when the
// last of them lets go (the C ABI wants a communicator's works released before it). A Work keeps
// its tensors alive until it is released.
#include <memory>
#include <new>
#include <string>
#include <utility>

#include <nanobind/stl/string.h>

#include "errors.hpp"
#include "tensor.hpp"

namespace nb = nanobind;

namespace kfpy {
namespace {

struct CommHandle {
  kf_comm_t h = nullptr;
  explicit CommHandle(kf_comm_t c) : h(c) {}
  CommHandle(const CommHandle&) = delete;
  CommHandle& operator=(const CommHandle&) = delete;
  ~CommHandle() {
    nb::gil_scoped_release unlocked;  // the engine may wait for its threads
    kf_comm_destroy(h);
  }
};

struct Work {
  std::shared_ptr<CommHandle> comm;  // outlives h
  kf_work_t h = nullptr;
  nb::object keep;  // the call's tensors
  nb::object then;  // called once after the work succeeded (None: nothing)
  Work(std::shared_ptr<CommHandle> c, kf_work_t w, nb::object tensors)
      : comm(std::move(c)), h(w), keep(std::move(tensors)), then(nb::none()) {}
  Work(const Work&) = delete;
  Work& operator=(const Work&) = delete;
  ~Work() {
    nb::gil_scoped_release unlocked;  // an unfinished work is waited for
    kf_work_release(h);
  }
};

struct Communicator {
  std::shared_ptr<CommHandle> comm;

  kf_comm_t c() const {
    if (!comm) {
      raise(PyExc_RuntimeError, "this process group was destroyed (destroy_process_group): "
                                "make a new one with init_process_group");
    }
    return comm->h;
  }
};

kf_tensor_t tensor_arg(nb::handle o, const char* what) {
  const kf_tensor_t h = tensor_of(o);
  if (h == nullptr) {
    throw nb::type_error((std::string(what) + " must be a kernforge Tensor, not " +
                          nb::type_name(o.type()).c_str()).c_str());
  }
  return h;
}

// Runs `call` (taking a kf_work_t*, NULL to wait) without the GIL: None when it waited, else
// the Work holding `tensors`.
template <typename F>
nb::object start(const Communicator& self, nb::object tensors, bool async_op, F&& call) {
  const kf_comm_t c = self.c();
  kf_work_t w = nullptr;
  kf_status_t s;
  {
    nb::gil_scoped_release unlocked;  // `tensors` keeps them alive
    s = call(c, async_op ? &w : nullptr);
  }
  check(s);
  if (!async_op) return nb::none();
  return nb::cast(new Work(self.comm, w, std::move(tensors)), nb::rv_policy::take_ownership);
}

void create(Communicator* self, const std::string& engine, const std::string& rendezvous,
            int32_t rank, int32_t world_size, int64_t timeout_ms) {
  kf_comm_options_t o{};
  o.struct_size = sizeof o;
  o.engine = engine.c_str();
  o.rendezvous = rendezvous.c_str();
  o.rank = rank;
  o.world_size = world_size;
  o.timeout_ms = timeout_ms;
  kf_comm_t c = nullptr;
  kf_status_t s;
  {
    nb::gil_scoped_release unlocked;
    s = kf_comm_create(&o, &c);
  }
  check(s);
  new (self) Communicator{std::make_shared<CommHandle>(c)};
}

int32_t comm_int(const Communicator& self, kf_status_t (*get)(kf_comm_t, int32_t*)) {
  int32_t v = 0;
  check(get(self.c(), &v));
  return v;
}

// Waits (without the GIL), raises the work's failure, then runs its `then` once.
bool work_wait(Work& w) {
  kf_status_t s;
  {
    nb::gil_scoped_release unlocked;
    s = kf_work_wait(w.h);
  }
  check(s);
  if (!w.then.is_none()) {
    nb::object f = std::move(w.then);
    w.then = nb::none();
    f();
  }
  return true;
}

// Whether the work ended; one that ended well has run its `then`. Never raises the work's
// failure (wait() does).
bool work_done(Work& w) {
  bool done = false;
  check(kf_work_test(w.h, &done));
  if (done && !w.then.is_none() && kf_work_wait(w.h) == KF_OK) work_wait(w);
  return done;
}

// kf_comm_split without the GIL: the new Communicator, or None for a rank without a color.
nb::object split(const Communicator& self, int32_t color, int32_t key) {
  const kf_comm_t c = self.c();
  kf_comm_t sub = nullptr;
  kf_status_t s;
  {
    nb::gil_scoped_release unlocked;  // every rank must arrive
    s = kf_comm_split(c, color, key, &sub);
  }
  check(s);
  if (sub == nullptr) return nb::none();
  return nb::cast(Communicator{std::make_shared<CommHandle>(sub)});
}

void bind_calls(nb::class_<Communicator>& cls) {
  cls.def("all_reduce", [](const Communicator& self, nb::object t, int32_t op, bool async_op) {
    const kf_tensor_t h = tensor_arg(t, "all_reduce: tensor");
    return start(self, nb::make_tuple(t), async_op, [&](kf_comm_t c, kf_work_t* w) {
      return kf_all_reduce(c, h, static_cast<kf_reduce_op_t>(op), w);
    });
  }, nb::arg("tensor"), nb::arg("op"), nb::arg("async_op"));
  cls.def("broadcast", [](const Communicator& self, nb::object t, int32_t root, bool async_op) {
    const kf_tensor_t h = tensor_arg(t, "broadcast: tensor");
    return start(self, nb::make_tuple(t), async_op, [&](kf_comm_t c, kf_work_t* w) {
      return kf_broadcast(c, h, root, w);
    });
  }, nb::arg("tensor"), nb::arg("root"), nb::arg("async_op"));
  cls.def("all_gather", [](const Communicator& self, nb::object out, nb::object in,
                           bool async_op) {
    const kf_tensor_t o = tensor_arg(out, "all_gather: output"), i = tensor_arg(in, "input");
    return start(self, nb::make_tuple(out, in), async_op, [&](kf_comm_t c, kf_work_t* w) {
      return kf_all_gather(c, o, i, w);
    });
  }, nb::arg("output"), nb::arg("input"), nb::arg("async_op"));
  cls.def("reduce_scatter", [](const Communicator& self, nb::object out, nb::object in,
                               int32_t op, bool async_op) {
    const kf_tensor_t o = tensor_arg(out, "reduce_scatter: output"), i = tensor_arg(in, "input");
    return start(self, nb::make_tuple(out, in), async_op, [&](kf_comm_t c, kf_work_t* w) {
      return kf_reduce_scatter(c, o, i, static_cast<kf_reduce_op_t>(op), w);
    });
  }, nb::arg("output"), nb::arg("input"), nb::arg("op"), nb::arg("async_op"));
}

void bind_point_to_point(nb::class_<Communicator>& cls) {
  cls.def("send", [](const Communicator& self, nb::object t, int32_t peer, int32_t tag,
                     bool async_op) {
    const kf_tensor_t h = tensor_arg(t, "send: tensor");
    return start(self, nb::make_tuple(t), async_op, [&](kf_comm_t c, kf_work_t* w) {
      return kf_send(c, h, peer, tag, w);
    });
  }, nb::arg("tensor"), nb::arg("peer"), nb::arg("tag"), nb::arg("async_op"));
  cls.def("recv", [](const Communicator& self, nb::object t, int32_t peer, int32_t tag,
                     bool async_op) {
    const kf_tensor_t h = tensor_arg(t, "recv: tensor");
    return start(self, nb::make_tuple(t), async_op, [&](kf_comm_t c, kf_work_t* w) {
      return kf_recv(c, h, peer, tag, w);
    });
  }, nb::arg("tensor"), nb::arg("peer"), nb::arg("tag"), nb::arg("async_op"));
  cls.def("barrier", [](const Communicator& self, bool async_op) {
    return start(self, nb::make_tuple(), async_op, [](kf_comm_t c, kf_work_t* w) {
      return kf_barrier(c, w);
    });
  }, nb::arg("async_op"));
}

}  // namespace

void bind_distributed(nb::module_& m) {
  nb::dict ops;  // {"sum": KF_REDUCE_SUM, ...}: kernforge.distributed.ReduceOp's members
  for (int32_t op = 0; std::string(kf_reduce_op_name(op)) != "unknown"; ++op) {
    ops[kf_reduce_op_name(op)] = op;
  }
  m.attr("REDUCE_OPS") = ops;
  nb::class_<Work>(m, "Work", "A started collective (kf_work_t): wait() or is_completed().")
      .def("wait", &work_wait,
           "Waits for the work (at most the communicator's timeout: then TimeoutError), raises "
           "its failure, and returns True.")
      .def("is_completed", &work_done, "Whether the work has ended (never blocks).")
      .def("_then", [](Work& w, nb::object f) { w.then = std::move(f); }, nb::arg("f"),
           "Sets what wait() calls once the work succeeded (the list forms' copies).");
  auto cls = nb::class_<Communicator>(m, "Communicator",
                                      "One process's membership of a communicator (kf_comm_t).");
  cls.def("__init__", &create, nb::arg("engine"), nb::arg("rendezvous"), nb::arg("rank"),
          nb::arg("world_size"), nb::arg("timeout_ms"),
          "Joins: returns once every rank arrived (TimeoutError when not all did in time).")
      .def_prop_ro("rank", [](const Communicator& s) { return comm_int(s, &kf_comm_rank); })
      .def_prop_ro("world_size",
                   [](const Communicator& s) { return comm_int(s, &kf_comm_world_size); })
      .def("destroy", [](Communicator& s) { s.comm.reset(); },
           "Leaves: the handle goes once the works started on it are released too.")
      .def("split", &split, nb::arg("color"), nb::arg("key"),
           "kf_comm_split: the ranks giving the same color (>= 0) make a new Communicator, "
           "ranked by key; a rank giving NO_COLOR gets None.")
      .def("abort", [](const Communicator& s) { check(kf_comm_abort(s.c())); },
           "kf_comm_abort: queued and later calls on this rank fail at once; destroy it after.");
  m.attr("NO_COLOR") = KF_COMM_NO_COLOR;
  bind_calls(cls);
  bind_point_to_point(cls);
}

}  // namespace kfpy
