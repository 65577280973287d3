#pragma once

#include <QOpenGLExtraFunctions>
#include <QOpenGLWidget>
#include <QPointF>
#include <cstdint>
#include <imgui.h>
#include <memory>

namespace tilescope::gui {

class ImGuiRenderer;

/// Base of the dense chart canvases: a QOpenGLWidget that owns one Dear ImGui context and
/// renders it through ImGuiRenderer. Subclasses implement drawFrame() to fill ImGui's background
/// draw list (and tooltips) from data their model has already aggregated; this class handles the
/// GL lifetime, high-DPI (fonts rasterised at the device pixel ratio, geometry in logical pixels),
/// palette colours and mouse hover. It measures the CPU cost of each frame (drawFrame plus
/// ImGui::Render, i.e. everything before the GPU draws) for the benchmark and the status bar.
class ImGuiCanvas : public QOpenGLWidget, protected QOpenGLExtraFunctions {
    Q_OBJECT
public:
    explicit ImGuiCanvas(QWidget* parent = nullptr);
    ~ImGuiCanvas() override;

    double lastFramePrepMs() const { return lastFramePrepMs_; }
    double worstFramePrepMs() const { return worstFramePrepMs_; }
    void resetFrameStatistics() { worstFramePrepMs_ = 0; }
    /// Frames rendered so far (tests and the benchmark check that a repaint really drew).
    std::uint64_t framesRendered() const { return frames_; }

protected:
    /// Draws one frame in logical pixels; `size` is the widget size.
    virtual void drawFrame(ImDrawList& list, const QSizeF& size) = 0;

    /// Palette colour as an ImGui colour, optionally with a different alpha (0..1).
    ImU32 colour(const QColor& c, double alpha = -1) const;
    /// Mouse position in logical pixels, or nothing when the mouse is outside.
    bool hasHover() const { return hover_; }
    QPointF hoverPosition() const { return hoverPos_; }

    void initializeGL() override;
    void paintGL() override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void buildFonts(double devicePixelRatio);
    void applyPaletteStyle();
    void releaseGL();

    ImGuiContext* context_ = nullptr;
    QMetaObject::Connection contextConnection_;
    std::unique_ptr<ImGuiRenderer> renderer_;
    double fontPixelRatio_ = 0;
    bool hover_ = false;
    QPointF hoverPos_;
    double lastFramePrepMs_ = 0;
    double worstFramePrepMs_ = 0;
    std::uint64_t frames_ = 0;
};

} // namespace tilescope::gui
