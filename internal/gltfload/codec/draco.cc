// The Draco half of the codec package: an extern "C" face on libdraco's
// mesh decoder. Every function reports failure by its return value; no
// C++ exception or assertion crosses into Go.
#include <cstdint>
#include <cstring>
#include <cmath>
#include <memory>
#include <string>

#if defined(__has_include)
#if !__has_include("draco/compression/decode.h")
#error "libdraco's headers are missing: install libdraco-dev (make setup)"
#endif
#endif
#include "draco/compression/decode.h"
#include "draco/mesh/mesh.h"

#include "codec.h"

namespace {

void setErr(char *err, size_t n, const std::string &msg) {
  if (err == nullptr || n == 0) return;
  size_t k = msg.size() < n - 1 ? msg.size() : n - 1;
  memcpy(err, msg.data(), k);
  err[k] = 0;
}

// Component types as glTF numbers them.
enum { kByte = 5120, kUbyte = 5121, kShort = 5122, kUshort = 5123, kUint = 5125, kFloat = 5126 };

double normMax(int ct) {
  switch (ct) {
    case kByte: return 127;
    case kUbyte: return 255;
    case kShort: return 32767;
    case kUshort: return 65535;
    case kUint: return 4294967295.0;
  }
  return 1;
}

bool isIntegerType(draco::DataType t) {
  return t != draco::DT_FLOAT32 && t != draco::DT_FLOAT64 && t != draco::DT_INVALID;
}

double drcMax(draco::DataType t) {
  switch (t) {
    case draco::DT_INT8: return 127;
    case draco::DT_UINT8: return 255;
    case draco::DT_INT16: return 32767;
    case draco::DT_UINT16: return 65535;
    case draco::DT_INT32: return 2147483647.0;
    case draco::DT_UINT32: return 4294967295.0;
    default: return 1;
  }
}

void put(unsigned char *dst, int ct, bool normalized, double v) {
  if (ct == kFloat) {
    float f = static_cast<float>(v);
    memcpy(dst, &f, 4);
    return;
  }
  double lo = 0, hi = normMax(ct);
  if (ct == kByte || ct == kShort) lo = -hi - 1;
  if (normalized) v *= normMax(ct);
  if (!(v == v)) v = 0;
  v = std::round(v);
  if (v < lo) v = lo;
  if (v > hi) v = hi;
  switch (ct) {
    case kByte: { int8_t x = static_cast<int8_t>(v); memcpy(dst, &x, 1); break; }
    case kUbyte: { uint8_t x = static_cast<uint8_t>(v); memcpy(dst, &x, 1); break; }
    case kShort: { int16_t x = static_cast<int16_t>(v); memcpy(dst, &x, 2); break; }
    case kUshort: { uint16_t x = static_cast<uint16_t>(v); memcpy(dst, &x, 2); break; }
    case kUint: { uint32_t x = static_cast<uint32_t>(v); memcpy(dst, &x, 4); break; }
  }
}

}  // namespace

extern "C" {

void *skv_draco_decode(const unsigned char *data, size_t len, char *err, size_t errlen) {
  try {
    draco::DecoderBuffer buf;
    buf.Init(reinterpret_cast<const char *>(data), len);
    auto type = draco::Decoder::GetEncodedGeometryType(&buf);
    if (!type.ok()) {
      setErr(err, errlen, type.status().error_msg_string());
      return nullptr;
    }
    if (type.value() != draco::TRIANGULAR_MESH) {
      setErr(err, errlen, "the Draco data is a point cloud, not a triangle mesh");
      return nullptr;
    }
    draco::Decoder dec;
    auto res = dec.DecodeMeshFromBuffer(&buf);
    if (!res.ok()) {
      setErr(err, errlen, res.status().error_msg_string());
      return nullptr;
    }
    return std::move(res).value().release();
  } catch (const std::exception &e) {
    setErr(err, errlen, e.what());
  } catch (...) {
    setErr(err, errlen, "libdraco failed");
  }
  return nullptr;
}

void skv_draco_free(void *m) { delete static_cast<draco::Mesh *>(m); }

uint32_t skv_draco_num_points(void *m) { return static_cast<draco::Mesh *>(m)->num_points(); }

uint32_t skv_draco_num_faces(void *m) { return static_cast<draco::Mesh *>(m)->num_faces(); }

int skv_draco_indices(void *mp, unsigned char *out, size_t count, int ct) {
  auto *m = static_cast<draco::Mesh *>(mp);
  if (count != static_cast<size_t>(m->num_faces()) * 3) return -1;
  int size = ct == kUbyte ? 1 : ct == kUshort ? 2 : 4;
  size_t k = 0;
  for (draco::FaceIndex f(0); f < m->num_faces(); ++f) {
    const auto &face = m->face(f);
    for (int c = 0; c < 3; c++) {
      uint32_t v = face[c].value();
      if (v >= m->num_points()) return -2;
      if (size == 1 && v > 0xff) return -3;
      if (size == 2 && v > 0xffff) return -3;
      memcpy(out + k * size, &v, size);  // little-endian
      k++;
    }
  }
  return 0;
}

int skv_draco_attribute(void *mp, int unique_id, int ct, int comps, int normalized,
                        unsigned char *out, size_t outlen, char *err, size_t errlen) {
  auto *m = static_cast<draco::Mesh *>(mp);
  const draco::PointAttribute *att = m->GetAttributeByUniqueId(unique_id);
  if (att == nullptr) {
    setErr(err, errlen, "no attribute with this id in the Draco data");
    return -1;
  }
  if (att->num_components() < 1 || att->num_components() > 16 || comps < 1 || comps > 16) {
    setErr(err, errlen, "attribute has " + std::to_string(int(att->num_components())) + " components");
    return -1;
  }
  if (att->num_components() != comps) {
    setErr(err, errlen, "the Draco attribute has " + std::to_string(int(att->num_components())) +
                            " components, the accessor " + std::to_string(comps));
    return -1;
  }
  int size = (ct == kUbyte || ct == kByte) ? 1 : (ct == kShort || ct == kUshort) ? 2 : 4;
  size_t n = m->num_points();
  if (outlen != n * comps * size) {
    setErr(err, errlen, "output size mismatch");
    return -1;
  }
  // Values are read as doubles: exact for every glTF component type.
  // libdraco converts a normalized integer attribute to its [0,1] or
  // [-1,1] value; put then writes that as the accessor declares it (an
  // unnormalized integer accessor takes the stored integer back).
  bool drcNorm = att->normalized() && isIntegerType(att->data_type());
  bool accNorm = normalized != 0 && ct != kFloat;
  double vals[16];
  for (draco::PointIndex p(0); p < n; ++p) {
    draco::AttributeValueIndex avi = att->mapped_index(p);
    if (avi.value() >= att->size()) {
      setErr(err, errlen, "a point maps past the attribute's values");
      return -1;
    }
    if (!att->ConvertValue<double>(avi, static_cast<int8_t>(comps), vals)) {
      setErr(err, errlen, "the attribute's values cannot be converted");
      return -1;
    }
    for (int c = 0; c < comps; c++) {
      double v = vals[c];
      if (drcNorm && !accNorm && ct != kFloat) v *= drcMax(att->data_type());
      put(out + (static_cast<size_t>(p.value()) * comps + c) * size, ct, accNorm, v);
    }
  }
  return 0;
}

}  // extern "C"
