"""Numba's typing templates (numba.core.typing.templates) as packages use
them to give a type of their own a method, an attribute or a call::

    template = make_overload_attribute_template(MultiVectorType, "__call__", ga_call,
                                                base=_OverloadCallTemplate)
    numba.extending.infer_getattr(template)

A template made so records its type class, attribute and typing function;
infer_getattr registers that function as ruchey.extending's overload_method,
overload_attribute, or (``__call__``) overload_call would, whatever the
template's base class does in Numba's lowering (clifford's keys its
lowering by the type for calls). Templates written against Numba's typing
internals (``resolve_*`` methods, ``generic``) are not read: compiled code
using what they type is told that the type has no such member.
"""
from ruchey import extending, types


def signature(return_type, *args):
    """numba.core.typing.templates.signature: the signature of a call
    taking args and returning return_type (return_type(*args), as the
    typing functions of @intrinsic and type_callable build it)."""
    return types.Signature(return_type, args)


class AbstractTemplate:
    """Numba's base of typing templates: a class packages subclass."""

    key = None


class _OverloadAttributeTemplate(AbstractTemplate):
    """Numba's base of the templates make_overload_attribute_template makes."""

    is_method = False


class _OverloadMethodTemplate(_OverloadAttributeTemplate):
    """Numba's base of the templates make_overload_method_template makes."""

    is_method = True


def make_overload_attribute_template(typ, attr, overload_func, inline="never", prefer_literal=False,
                                     base=_OverloadAttributeTemplate, **kwargs):
    """A template of typ's attribute attr typed by overload_func (a method's
    or a call's where base says is_method)."""
    if not isinstance(typ, type):
        raise TypeError(f"make_overload_attribute_template takes a class of types, got {typ!r}")
    name = f"OverloadTemplate_{typ.__name__}_{attr}"
    return type(base)(name, (base,), dict(key=typ, _attr=attr, _overload_func=staticmethod(overload_func),
                                          _inline=inline, _ruchey_template=True))


def make_overload_method_template(typ, attr, overload_func, inline="never", prefer_literal=False, **kwargs):
    """A template of typ's method attr typed by overload_func."""
    return make_overload_attribute_template(typ, attr, overload_func, inline, prefer_literal,
                                            base=_OverloadMethodTemplate)


def infer_getattr(template):
    """numba.extending.infer_getattr: a template made above registers its
    typing function; any other is kept unread. Returns the template."""
    if getattr(template, "_ruchey_template", False):
        func, attr, key = template._overload_func, template._attr, template.key
        if attr == "__call__":
            extending.overload_call(key, func)
        elif getattr(template, "is_method", False):
            extending.overload_method(key, attr)(func)
        else:
            extending.overload_attribute(key, attr)(func)
    return template
