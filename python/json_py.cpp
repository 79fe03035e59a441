#include "json_py.hpp"

#include <cmath>

#include "referee/core/errors.hpp"
#include "referee/core/json_io.hpp"

namespace referee::py {

namespace {

Json to_json_at(pb::handle h, const std::string& path, std::size_t depth) {
  if (depth > kMaxJsonDepth) throw InputError(path, "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  if (h.is_none()) return nullptr;
  // bool before int: Python's True is an int too.
  if (PyBool_Check(h.ptr())) return h.ptr() == Py_True;
  if (PyLong_Check(h.ptr())) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
    if (overflow == 0) return v;
    if (overflow > 0) {
      const unsigned long long u = PyLong_AsUnsignedLongLong(h.ptr());
      if (!PyErr_Occurred()) return u;
      PyErr_Clear();
    }
    throw InputError(path, "an integer too large for 64 bits");
  }
  if (PyFloat_Check(h.ptr())) {
    const double d = PyFloat_AS_DOUBLE(h.ptr());
    if (!std::isfinite(d)) throw InputError(path, "not a finite number");
    return d;
  }
  if (PyUnicode_Check(h.ptr())) {
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(h.ptr(), &size);
    if (!data) throw pb::error_already_set();
    return std::string(data, static_cast<std::size_t>(size));
  }
  if (PyDict_Check(h.ptr())) {
    Json o = Json::object();
    for (auto [k, v] : pb::reinterpret_borrow<pb::dict>(h)) {
      if (!PyUnicode_Check(k.ptr())) throw InputError(path, "a key that is not a string: " + std::string(pb::repr(k)));
      const std::string key = k.cast<std::string>();
      o[key] = to_json_at(v, path + "." + key, depth + 1);
    }
    return o;
  }
  if (PyList_Check(h.ptr()) || PyTuple_Check(h.ptr())) {
    Json a = Json::array();
    const pb::sequence seq = pb::reinterpret_borrow<pb::sequence>(h);
    const std::size_t n = seq.size();
    for (std::size_t i = 0; i < n; ++i) a.push_back(to_json_at(seq[i], path + "[" + std::to_string(i) + "]", depth + 1));
    return a;
  }
  throw InputError(path, "not a JSON value (dict, list, str, number, bool or None): " +
                             std::string(pb::str(pb::type::handle_of(h).attr("__name__"))));
}

}  // namespace

Json to_json(pb::handle h, const std::string& path) { return to_json_at(h, path, 0); }

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
