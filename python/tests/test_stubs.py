"""The type stubs (referee/__init__.pyi) and the docstrings cover the module
as built: an editor completes every name, and help() explains each."""

import ast
import inspect
import os

import referee

STUB = os.path.join(os.path.dirname(referee.__file__), "__init__.pyi")


def stub_names():
    tree = ast.parse(open(STUB, encoding="utf-8").read())
    functions, classes = set(), {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            functions.add(node.name)
        elif isinstance(node, ast.ClassDef):
            classes[node.name] = {n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.AnnAssign))
                                  and not isinstance(n, ast.AnnAssign)} | {
                n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
    return functions, classes


def public(names):
    return {n for n in names if not n.startswith("_")}


def test_stub_lists_every_name_of_the_module():
    functions, classes = stub_names()
    module_functions = {n for n in referee.__all__ if inspect.isroutine(getattr(referee, n))}
    module_classes = {n for n in referee.__all__ if inspect.isclass(getattr(referee, n))}
    assert functions == module_functions
    assert set(classes) == module_classes
    for name in module_classes:
        cls = getattr(referee, name)
        if issubclass(cls, Exception):
            continue  # their attributes are set when raised
        real = public(n for n in dir(cls) if n in vars(cls))
        assert public(classes[name]) == real, name


def test_everything_has_a_docstring():
    for name in referee.__all__:
        obj = getattr(referee, name)
        if isinstance(obj, str):
            continue
        assert (obj.__doc__ or "").strip(), name
        if inspect.isclass(obj) and not issubclass(obj, Exception):
            for attr, value in vars(obj).items():
                if attr.startswith("_"):
                    continue
                assert (getattr(value, "__doc__", None) or "").strip(), f"{name}.{attr}"
