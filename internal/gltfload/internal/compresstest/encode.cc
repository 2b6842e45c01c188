// Test-only encoders: libdraco's mesh encoder behind an extern "C" call.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "draco/compression/encode.h"
#include "draco/mesh/mesh.h"

#include "encode.h"

extern "C" {

unsigned char *skvt_draco_encode(int npoints, const uint32_t *faces, int nfaces, int nattrs,
                                 const int *kinds, const int *dts, const int *comps,
                                 const int *norms, const int *qbits, const size_t *offs,
                                 const unsigned char *data, int speed, int sequential,
                                 int *ids, size_t *outlen) {
  draco::Mesh mesh;
  mesh.set_num_points(npoints);
  for (int f = 0; f < nfaces; f++) {
    draco::Mesh::Face face;
    for (int c = 0; c < 3; c++) face[c] = draco::PointIndex(faces[f * 3 + c]);
    mesh.AddFace(face);
  }
  draco::Encoder enc;
  for (int a = 0; a < nattrs; a++) {
    auto type = static_cast<draco::GeometryAttribute::Type>(kinds[a]);
    auto dt = static_cast<draco::DataType>(dts[a]);
    draco::GeometryAttribute ga;
    int size = draco::DataTypeLength(dt) * comps[a];
    ga.Init(type, nullptr, comps[a], dt, norms[a] != 0, size, 0);
    int id = mesh.AddAttribute(ga, true, npoints);
    draco::PointAttribute *att = mesh.attribute(id);
    for (int p = 0; p < npoints; p++) {
      att->SetAttributeValue(draco::AttributeValueIndex(p), data + offs[a] + size_t(p) * size);
    }
    ids[a] = att->unique_id();
    if (qbits[a] > 0) enc.SetAttributeQuantization(type, qbits[a]);
  }
  enc.SetSpeedOptions(speed, speed);
  if (sequential) enc.SetEncodingMethod(draco::MESH_SEQUENTIAL_ENCODING);
  draco::EncoderBuffer buf;
  if (!enc.EncodeMeshToBuffer(mesh, &buf).ok()) return nullptr;
  auto *out = static_cast<unsigned char *>(malloc(buf.size()));
  memcpy(out, buf.data(), buf.size());
  *outlen = buf.size();
  return out;
}

}  // extern "C"
