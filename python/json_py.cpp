#include "json_py.hpp"

#include <cmath>
#include <string_view>

#include "referee/core/errors.hpp"
#include "referee/core/json_io.hpp"

namespace referee::py {

namespace {

// Where a value is, kept on the stack and spelled out only for an error:
// making the path's string for every value would cost more than the value.
struct Where {
  const Where* parent = nullptr;
  const std::string* root = nullptr;  // the outermost: the caller's path
  std::string_view key;               // a dict's key, or
  std::size_t index = 0;              // a list's index when key is empty and root null
  std::string path() const {
    if (root) return *root;
    std::string p = parent->path();
    if (key.data()) return p + "." + std::string(key);
    return p + "[" + std::to_string(index) + "]";
  }
};

Json to_json_at(pb::handle h, const Where& at, std::size_t depth) {
  if (depth > kMaxJsonDepth)
    throw InputError(at.path(), "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  PyObject* o = h.ptr();
  if (o == Py_None) return nullptr;
  // bool before int: Python's True is an int too.
  if (PyBool_Check(o)) return o == Py_True;
  if (PyLong_Check(o)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow == 0) return v;
    if (overflow > 0) {
      const unsigned long long u = PyLong_AsUnsignedLongLong(o);
      if (!PyErr_Occurred()) return u;
      PyErr_Clear();
    }
    throw InputError(at.path(), "an integer too large for 64 bits");
  }
  if (PyFloat_Check(o)) {
    const double d = PyFloat_AS_DOUBLE(o);
    if (!std::isfinite(d)) throw InputError(at.path(), "not a finite number");
    return d;
  }
  if (PyUnicode_Check(o)) {
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(o, &size);
    if (!data) throw pb::error_already_set();
    return std::string(data, static_cast<std::size_t>(size));
  }
  if (PyDict_Check(o)) {
    Json j = Json::object();
    PyObject *k = nullptr, *v = nullptr;
    Py_ssize_t pos = 0;
    while (PyDict_Next(o, &pos, &k, &v)) {
      if (!PyUnicode_Check(k))
        throw InputError(at.path(), "a key that is not a string: " + std::string(pb::repr(pb::handle(k))));
      Py_ssize_t size = 0;
      const char* data = PyUnicode_AsUTF8AndSize(k, &size);
      if (!data) throw pb::error_already_set();
      const std::string_view key(data, static_cast<std::size_t>(size));
      j.emplace(std::string(key), to_json_at(v, Where{&at, nullptr, key, 0}, depth + 1));
    }
    return j;
  }
  if (PyList_Check(o) || PyTuple_Check(o)) {
    const bool list = PyList_Check(o);
    const Py_ssize_t n = list ? PyList_GET_SIZE(o) : PyTuple_GET_SIZE(o);
    Json j = Json::array();
    j.get_ref<Json::array_t&>().reserve(static_cast<std::size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i)
      j.push_back(to_json_at(list ? PyList_GET_ITEM(o, i) : PyTuple_GET_ITEM(o, i),
                             Where{&at, nullptr, {}, static_cast<std::size_t>(i)}, depth + 1));
    return j;
  }
  throw InputError(at.path(), "not a JSON value (dict, list, str, number, bool or None): " +
                                  std::string(pb::str(pb::type::handle_of(h).attr("__name__"))));
}

}  // namespace

Json to_json(pb::handle h, const std::string& path) { return to_json_at(h, Where{nullptr, &path, {}, 0}, 0); }

pb::object from_json(const Json& j) {
  switch (j.type()) {
    case Json::value_t::null:
    case Json::value_t::discarded:
      return pb::none();
    case Json::value_t::boolean:
      return pb::bool_(j.get<bool>());
    case Json::value_t::number_integer:
      return pb::int_(j.get<std::int64_t>());
    case Json::value_t::number_unsigned:
      return pb::int_(j.get<std::uint64_t>());
    case Json::value_t::number_float:
      return pb::float_(j.get<double>());
    case Json::value_t::string:
      return pb::str(j.get_ref<const std::string&>());
    case Json::value_t::array: {
      pb::list l(j.size());
      std::size_t i = 0;
      for (const Json& e : j) l[i++] = from_json(e);
      return l;
    }
    case Json::value_t::object: {
      pb::dict d;
      for (auto it = j.begin(); it != j.end(); ++it) d[pb::str(it.key())] = from_json(it.value());
      return d;
    }
    case Json::value_t::binary:
      break;
  }
  throw InputError("", "binary JSON has no Python value");
}

}  // namespace referee::py
