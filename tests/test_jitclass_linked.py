"""jitclasses whose fields hold the class itself, through deferred_type
(as Numba's): linked lists and binary search trees built and walked in
compiled code and in Python, each compared with the functions' Python
originals (py_func) on generated inputs; whole chains freed when their
last reference goes, a million nodes long without recursing as deep."""
import numpy as np
import pytest

import ruchey
from ruchey import deferred_type, int64, float64, njit, optional, typed, types
from ruchey.experimental import jitclass

from conftest import AS_NUMBA, make_rng, rss_bytes, seed_of

ruchey_only = pytest.mark.skipif(AS_NUMBA, reason="ruchey's native objects and messages")


# ---------------------------------------------------------------- the classes (Numba's documented patterns)

node_type = deferred_type()


@jitclass([("data", int64), ("next", optional(node_type))])
class Node:
    def __init__(self, data, next):
        self.data = data
        self.next = next

    def prepend(self, data):
        return Node(data, self)


node_type.define(Node.class_type.instance_type)

tree_type = deferred_type()


@jitclass([("value", float64), ("left", optional(tree_type)), ("right", optional(tree_type))])
class TreeNode:
    def __init__(self, value):
        self.value = value
        self.left = None
        self.right = None


tree_type.define(TreeNode.class_type.instance_type)


# ---------------------------------------------------------------- linked lists

@njit
def linked(values):
    head = None
    for v in values[::-1]:
        head = Node(v, head)
    return head


@njit
def linked_by_method(values):
    head = Node(values[-1], None)
    for i in range(len(values) - 2, -1, -1):
        head = head.prepend(values[i])
    return head


@njit
def walk_sum(head):
    s = 0
    n = head
    while n is not None:
        s += n.data
        n = n.next
    return s


@njit
def walk_sum_by_truth(head):
    s = 0
    n = head
    while n:  # None is false, a node (no __bool__, no __len__) true
        s += n.data
        n = n.next
    return s


@njit
def double_every_other(head):
    n = head
    i = 0
    while n is not None:
        if i % 2 == 0:
            n.data *= 2
        n = n.next
        i += 1


@njit
def drop_odd(head):
    """Unlinks the nodes holding odd numbers; the new head."""
    while head is not None and head.data % 2 != 0:
        head = head.next
    n = head
    while n is not None:
        while n.next is not None and n.next.data % 2 != 0:
            n.next = n.next.next
        n = n.next
    return head


@njit
def reverse(head):
    prev = None
    n = head
    while n is not None:
        nxt = n.next
        n.next = prev
        prev = n
        n = nxt
    return prev


def python_walk(head):
    out = []
    while head is not None:
        out.append(head.data)
        head = head.next
    return out


def test_linked_list_built_and_walked_in_compiled_code():
    rng = make_rng(seed_of("linked"))
    for n in (1, 2, 7, 100):
        values = rng.integers(-1000, 1000, size=n)
        for build in (linked, linked_by_method):
            head, expected = build(values), build.py_func(values)
            assert walk_sum(head) == walk_sum.py_func(expected) == values.sum()
            assert walk_sum_by_truth(head) == walk_sum_by_truth.py_func(expected) == values.sum()
            assert python_walk(head) == python_walk(expected) == list(values)
    assert linked(values[:0]) is None
    assert walk_sum_by_truth(None) == 0


@ruchey_only
def test_truth_of_an_optional_instance_with_len_asks_for_is_not_none():
    sized_type = deferred_type()

    @jitclass([("n", int64), ("next", optional(sized_type))])
    class Sized:
        def __init__(self, n):
            self.n = n
            self.next = None

        def __len__(self):
            return self.n

    sized_type.define(Sized.class_type.instance_type)

    @njit
    def walk(k):
        x = Sized(k).next
        while x:
            x = x.next

    with pytest.raises(ruchey.TypingError, match=r"is not None. and then len\(\)"):
        walk(2)


def test_linked_list_mutated_in_compiled_code_seen_in_python():
    rng = make_rng(seed_of("linked-mutate"))
    for n in (1, 5, 40):
        values = rng.integers(-50, 50, size=n)
        a, b = linked(values), linked.py_func(values)
        double_every_other(a)
        double_every_other.py_func(b)
        assert python_walk(a) == python_walk(b)
        a, b = drop_odd(a), drop_odd.py_func(b)
        assert python_walk(a) == python_walk(b)
        a, b = reverse(a), reverse.py_func(b)
        assert python_walk(a) == python_walk(b)


def test_linked_list_made_and_relinked_in_python():
    tail = Node(3, None)
    head = Node(1, Node(2, tail))
    assert walk_sum(head) == 6 and head.next.next.data == 3
    tail.next = Node(4, None)  # the same native node: compiled code walks through it
    assert walk_sum(head) == 10
    head.next = None
    assert walk_sum(head) == 1 and head.next is None
    assert python_walk(head.prepend(0)) == [0, 1]


# ---------------------------------------------------------------- binary search trees

@njit
def tree_insert(root, v):
    node = TreeNode(v)
    if root is None:
        return node
    n = root
    while True:
        if v < n.value:
            if n.left is None:
                n.left = node
                break
            n = n.left
        else:
            if n.right is None:
                n.right = node
                break
            n = n.right
    return root


@njit
def tree_of(values):
    root = None
    for v in values:
        root = tree_insert(root, v)
    return root


@njit
def in_order(root):
    out = []
    stack = []
    n = root
    while n is not None or len(stack) > 0:
        while n is not None:
            stack.append(n)
            n = n.left
        n = stack.pop()
        out.append(n.value)
        n = n.right
    return out


@njit
def height(root):
    if root is None:
        return 0
    return 1 + max(height(root.left), height(root.right))


def python_in_order(root):
    return [] if root is None else python_in_order(root.left) + [root.value] + python_in_order(root.right)


def test_binary_search_tree_matches_python():
    rng = make_rng(seed_of("tree"))
    for n in (1, 2, 10, 300):
        values = rng.normal(size=n)
        root, expected = tree_of(values), tree_of.py_func(values)
        assert list(in_order(root)) == in_order.py_func(expected) == sorted(values)
        assert height(root) == height.py_func(expected)
        assert python_in_order(root) == sorted(values)  # walked in Python
        assert root.value == values[0]
    more = rng.normal(size=20)
    for v in more:  # grown from Python, one compiled insert at a time
        root = tree_insert(root, v)
    assert python_in_order(root) == sorted(list(values) + list(more))


# ---------------------------------------------------------------- trees with lists of children

if not AS_NUMBA:  # numba 0.68 aborts (an LLVM assertion on an opaque struct) compiling this class
    kids_type = deferred_type()

    @jitclass([("value", int64), ("kids", types.ListType(kids_type))])
    class Branch:
        def __init__(self, value):
            self.value = value
            self.kids = typed.List.empty_list(kids_type)

    kids_type.define(Branch.class_type.instance_type)


@njit
def grown(parents):
    """A tree where node i + 1 is a child of node parents[i] (< i + 1)."""
    nodes = [Branch(0)]
    for i in range(len(parents)):
        child = Branch(i + 1)
        nodes[parents[i]].kids.append(child)
        nodes.append(child)
    return nodes[0]


@njit
def weighted_sum(b, depth):
    s = b.value * depth
    for k in b.kids:
        s += weighted_sum(k, depth + 1)
    return s


@ruchey_only
def test_tree_with_typed_lists_of_children():
    rng = make_rng(seed_of("branches"))
    for n in (0, 1, 6, 200):
        parents = np.array([rng.integers(0, i + 1) for i in range(n)], dtype=np.int64)
        root, expected = grown(parents), grown.py_func(parents)
        assert weighted_sum(root, 1) == weighted_sum.py_func(expected, 1)
        assert [k.value for k in root.kids] == [k.value for k in expected.kids]


# ---------------------------------------------------------------- references

@njit
def long_chain_length(n):
    head = None
    for i in range(n):
        head = Node(i, head)
    c = 0
    m = head
    while m is not None:
        c += 1
        m = m.next
    return c


@pytest.mark.skipif(AS_NUMBA, reason="numba frees a chain recursively: a million nodes overflow the C stack")
def test_a_million_nodes_are_freed_without_deep_recursion():
    assert long_chain_length(10**6) == 10**6  # freed in compiled code
    head = linked(np.arange(10**6))
    assert walk_sum(head) == (10**6 - 1) * 10**6 // 2
    del head  # freed from Python


@ruchey_only
def test_chains_are_counted_and_freed_whole():
    head = linked(np.arange(3))
    second = head.next
    assert head._meminfo_refcount() == 1 and second._meminfo_refcount() == 2
    del head
    assert second._meminfo_refcount() == 1 and python_walk(second) == [1, 2]

    def round_of_chains():
        assert long_chain_length(100_000) == 100_000
        head = linked(np.arange(100_000))
        tree_of(np.random.default_rng(1).normal(size=2000))
        del head

    # one round before the measure: each function compiled, and the heap
    # grown to what a round takes (about 8.5 MB, which malloc keeps), so
    # that the growth measured is what rounds leave behind
    round_of_chains()
    before = rss_bytes()
    for _ in range(30):
        round_of_chains()
    after = rss_bytes()
    if before is not None:  # a leaked chain of 100,000 nodes is several MB a round
        assert after - before < 8 << 20, f"RSS grew by {(after - before) >> 20} MB"


# ---------------------------------------------------------------- errors

def test_deferred_type_used_before_define_is_an_error():
    later = deferred_type()

    @jitclass([("x", int64), ("next", optional(later))])
    class Pending:
        def __init__(self, x):
            self.x = x
            self.next = None

    with pytest.raises(RuntimeError, match="not defined"):
        Pending(1)
    with pytest.raises(RuntimeError, match="deferred type not defined"):
        later.get()
    later.define(Pending.class_type.instance_type)
    assert Pending(2).x == 2 and Pending(3).next is None
    with pytest.raises(TypeError, match="already defined"):
        later.define(Pending.class_type.instance_type)


@ruchey_only
def test_undefined_class_in_compiled_code_is_a_typing_error():
    never = deferred_type()

    @jitclass([("next", optional(never))])
    class Orphan:
        def __init__(self):
            self.next = None

    @njit
    def make():
        return Orphan()

    with pytest.raises(ruchey.TypingError, match="jitclass Orphan: a deferred_type in its spec is not defined"):
        make()
    with pytest.raises(TypeError, match="not a Type"):
        never.define(3)


@njit
def link_a_number(n):
    n.next = 5


@ruchey_only
def test_a_wrong_type_in_a_self_field_names_the_field():
    with pytest.raises(ruchey.TypingError, match="field 'next' of jitclass Node"):
        link_a_number(Node(1, None))
