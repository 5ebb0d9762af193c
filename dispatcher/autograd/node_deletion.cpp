// node_deletion.cpp — delete_node, the deleter of every node.
//
// Note [Freeing a deep graph]
// A graph is a chain of shared_ptrs: each node holds the nodes of its inputs (its edges, and
// through its saved tensors their grad_fn). Freed by plain destructors, a chain of 100,000 ops
// would free each node from inside the destructor of the one after it, 100,000 frames deep, and
// overflow the stack. So the first node freed on a thread takes its edges into a queue before
// it is deleted (they stay alive there, so the saved tensors it drops are never their last
// reference), and a node freed while that queue exists (the queue dropping its last reference,
// or a saved tensor's grad_fn) hands its own edges to the same queue: the queue is emptied one
// node at a time, and the stack stays one deletion deep at any length.
#include <vector>

#include "autograd/node.hpp"

namespace kf::autograd {
namespace {

thread_local std::vector<std::shared_ptr<Node>>* t_pending = nullptr;

void take_edges(Node* n, std::vector<std::shared_ptr<Node>>& into) {
  for (Edge& e : n->next) {
    if (e.node) into.push_back(std::move(e.node));
  }
  n->next.clear();
}

}  // namespace

void delete_node(Node* n) noexcept {
  if (t_pending != nullptr) {  // inside a deletion on this thread: queue, don't recurse
    take_edges(n, *t_pending);
    delete n;
    return;
  }
  std::vector<std::shared_ptr<Node>> pending;
  t_pending = &pending;
  take_edges(n, pending);
  delete n;
  while (!pending.empty()) {
    std::shared_ptr<Node> next = std::move(pending.back());
    pending.pop_back();
    next.reset();  // the last reference: delete_node runs for it and queues its edges here
  }
  t_pending = nullptr;
}

}  // namespace kf::autograd
