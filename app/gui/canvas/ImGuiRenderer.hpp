#pragma once

#include <QOpenGLBuffer>
#include <QOpenGLExtraFunctions>
#include <QOpenGLShaderProgram>
#include <QOpenGLVertexArrayObject>
#include <memory>

struct ImDrawData;
struct ImFontAtlas;

namespace tilescope::gui {

/// Draws Dear ImGui draw data with the current Qt OpenGL context. We use this instead of the
/// imgui_impl_opengl3 backend because Qt already owns the context and resolves GL functions for
/// the platform (GLX, EGL, desktop GL or GLES); the backend's own gl3w loader would dlopen libGL
/// behind Qt's back and break on EGL-only or GLES platforms. Handles 16-bit indices over large
/// meshes through ImDrawCmd::VtxOffset by re-pointing the vertex attributes, which needs nothing
/// beyond OpenGL 3.0 / ES 3.0. All calls need the owning widget's context to be current.
class ImGuiRenderer : protected QOpenGLExtraFunctions {
public:
    ImGuiRenderer();
    ~ImGuiRenderer();

    void initialize();
    /// (Re)uploads the font atlas texture after the atlas was rebuilt (for a new pixel ratio).
    void uploadFonts(ImFontAtlas& atlas);
    void render(const ImDrawData& data);
    /// Frees GL objects; call with the context current (QOpenGLWidget's aboutToBeDestroyed).
    void release();

private:
    void setVertexPointers(quintptr vertexOffsetBytes);

    std::unique_ptr<QOpenGLShaderProgram> program_;
    QOpenGLVertexArrayObject vao_;
    QOpenGLBuffer vertices_{QOpenGLBuffer::VertexBuffer};
    QOpenGLBuffer indices_{QOpenGLBuffer::IndexBuffer};
    GLuint fontTexture_ = 0;
    int projectionLocation_ = -1;
    int textureLocation_ = -1;
    int positionAttr_ = -1, uvAttr_ = -1, colourAttr_ = -1;
};

} // namespace tilescope::gui
