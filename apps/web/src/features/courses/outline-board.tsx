import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, FilePdfOutlined, FileTextOutlined, HolderOutlined, PlusOutlined, VideoCameraOutlined } from '@ant-design/icons';
import type { LessonType, Outline, OutlineLesson } from '@cloud-classroom/shared/courses';
import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  useDroppable,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragOverEvent,
  type DragStartEvent,
  type DraggableAttributes,
  type DraggableSyntheticListeners,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Button, Card, Flex, Tag, Typography } from 'antd';
import { useState, type CSSProperties, type ReactNode } from 'react';
import { formatDuration } from '../media/media-format';
import { lessonPlace, moveChapter, moveLesson, orderOf, stepLesson } from './outline-order';
import type { OutlineTranslate } from './outline-messages';

type Chapter = Outline[number];

// dnd-kit ids: chapters and lessons share one context, so each kind gets its own prefix.
const chapterKey = (id: number) => `chapter-${id}`;
const lessonKey = (id: number) => `lesson-${id}`;
const lessonsOfKey = (id: number) => `lessons-of-${id}`;

type DragData = { type: 'chapter'; chapterId: number } | { type: 'lesson'; lessonId: number; chapterId: number } | { type: 'lessons'; chapterId: number };

const dataOf = (item: { data: { current?: unknown } } | null | undefined) => item?.data.current as DragData | undefined;

const TYPE_ICONS: Record<LessonType, typeof FileTextOutlined> = { video: VideoCameraOutlined, document: FilePdfOutlined, text: FileTextOutlined };

/** A chapter lands among chapters; a lesson among lessons, or in a chapter's (maybe empty) list. */
const collisionDetection: CollisionDetection = (args) => {
  const type = dataOf(args.active)?.type;
  const droppableContainers = args.droppableContainers.filter((container) => {
    const target = dataOf(container)?.type;
    return type === 'chapter' ? target === 'chapter' : target === 'lesson' || target === 'lessons';
  });
  if (type === 'chapter') return closestCenter({ ...args, droppableContainers });
  const within = pointerWithin({ ...args, droppableContainers });
  // Over a lesson inside a chapter's list, the lesson is the more precise target.
  const lessons = within.filter((collision) => String(collision.id).startsWith('lesson-'));
  if (lessons.length > 0) return lessons;
  return within.length > 0 ? within : closestCenter({ ...args, droppableContainers });
};

function sameOrder(a: Outline, b: Outline): boolean {
  return JSON.stringify(orderOf(a)) === JSON.stringify(orderOf(b));
}

export type OutlineBoardProps = {
  outline: Outline;
  /** Whether the user may change the outline: handles, move buttons, add and delete. */
  editable: boolean;
  /** Phones get move-up/down buttons instead of drag handles. */
  phone: boolean;
  t: OutlineTranslate;
  /** A new order (every chapter and lesson): the page saves it. */
  onReorder: (next: Outline) => void;
  renderChapterTitle: (chapter: Chapter) => ReactNode;
  onOpenLesson: (lesson: OutlineLesson) => void;
  onAddLesson: (chapter: Chapter) => void;
  onDeleteChapter: (chapter: Chapter) => void;
  onDeleteLesson: (lesson: OutlineLesson) => void;
};

function DragHandle({ label, attributes, listeners }: { label: string; attributes: DraggableAttributes; listeners: DraggableSyntheticListeners }) {
  return (
    <button type="button" className="outline-board__handle" aria-label={label} title={label} {...attributes} {...listeners}>
      <HolderOutlined />
    </button>
  );
}

function MoveButtons({ t, first, last, onMove }: { t: OutlineTranslate; first: boolean; last: boolean; onMove: (step: -1 | 1) => void }) {
  return (
    <>
      <Button size="small" type="text" icon={<ArrowUpOutlined />} aria-label={t('outline.moveUp')} disabled={first} onClick={() => onMove(-1)} />
      <Button size="small" type="text" icon={<ArrowDownOutlined />} aria-label={t('outline.moveDown')} disabled={last} onClick={() => onMove(1)} />
    </>
  );
}

function lessonFacts(lesson: OutlineLesson, t: OutlineTranslate): string[] {
  const facts: string[] = [t(`outline.type.${lesson.type}`)];
  if (lesson.durationSeconds !== null) facts.push(formatDuration(lesson.durationSeconds));
  else if (lesson.pages !== null) facts.push(t('outline.pages', { count: lesson.pages }));
  facts.push(t('outline.completion', { percent: lesson.completionPercent }));
  return facts;
}

function LessonRow({ lesson, chapterId, props }: { lesson: OutlineLesson; chapterId: number; props: OutlineBoardProps }) {
  const { t, editable, phone } = props;
  const { setNodeRef, transform, transition, isDragging, attributes, listeners } = useSortable({ id: lessonKey(lesson.id), data: { type: 'lesson', lessonId: lesson.id, chapterId } satisfies DragData, disabled: !editable || phone });
  const style: CSSProperties = { transform: CSS.Translate.toString(transform), transition: transition };
  const Icon = TYPE_ICONS[lesson.type];
  return (
    <li ref={setNodeRef} style={style} className={`outline-board__lesson${isDragging ? ' outline-board__lesson--dragging' : ''}`}>
      {editable && !phone && <DragHandle label={t('outline.dragLesson', { title: lesson.title })} attributes={attributes} listeners={listeners} />}
      <Icon className="outline-board__lesson-icon" aria-hidden />
      <Flex vertical className="outline-board__lesson-body">
        <Typography.Link onClick={() => props.onOpenLesson(lesson)} className="outline-board__lesson-title">
          {lesson.title}
        </Typography.Link>
        <Typography.Text type="secondary" className="outline-board__lesson-facts">
          {lessonFacts(lesson, t).join(' · ')}
          {lesson.preview && (
            <Tag color="green" className="outline-board__preview">
              {t('outline.preview')}
            </Tag>
          )}
        </Typography.Text>
      </Flex>
      {editable && (
        <Flex className="outline-board__actions">
          {phone && (
            <MoveButtons
              t={t}
              // A lesson steps past its chapter's edge into the next chapter: only the outline's ends stop it.
              first={stepLesson(props.outline, lesson.id, -1) === props.outline}
              last={stepLesson(props.outline, lesson.id, 1) === props.outline}
              onMove={(step) => props.onReorder(stepLesson(props.outline, lesson.id, step))}
            />
          )}
          <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={t('outline.deleteLesson')} title={t('outline.deleteLesson')} onClick={() => props.onDeleteLesson(lesson)} />
        </Flex>
      )}
    </li>
  );
}

function ChapterCard({ chapter, index, shown, props }: { chapter: Chapter; index: number; shown: Outline; props: OutlineBoardProps }) {
  const { t, editable, phone } = props;
  const { setNodeRef, transform, transition, isDragging, attributes, listeners } = useSortable({ id: chapterKey(chapter.id), data: { type: 'chapter', chapterId: chapter.id } satisfies DragData, disabled: !editable || phone });
  const { setNodeRef: setListRef, isOver } = useDroppable({ id: lessonsOfKey(chapter.id), data: { type: 'lessons', chapterId: chapter.id } satisfies DragData, disabled: !editable || phone });
  const style: CSSProperties = { transform: CSS.Translate.toString(transform), transition: transition };
  return (
    <section ref={setNodeRef} style={style} className={`outline-board__chapter${isDragging ? ' outline-board__chapter--dragging' : ''}`} aria-label={chapter.title}>
      <Card
        size="small"
        title={
          <Flex align="center" gap={4} className="outline-board__chapter-head">
            {editable && !phone && <DragHandle label={t('outline.dragChapter', { title: chapter.title })} attributes={attributes} listeners={listeners} />}
            {props.renderChapterTitle(chapter)}
          </Flex>
        }
        extra={
          editable && (
            <Flex align="center">
              {phone && (
                <MoveButtons t={t} first={index === 0} last={index === shown.length - 1} onMove={(step) => props.onReorder(moveChapter(props.outline, chapter.id, index + step))} />
              )}
              <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={t('outline.deleteChapter')} title={t('outline.deleteChapter')} onClick={() => props.onDeleteChapter(chapter)} />
            </Flex>
          )
        }
      >
        <SortableContext items={chapter.lessons.map((lesson) => lessonKey(lesson.id))} strategy={verticalListSortingStrategy}>
          <ul ref={setListRef} className={`outline-board__lessons${isOver ? ' outline-board__lessons--over' : ''}`}>
            {chapter.lessons.map((lesson) => (
              <LessonRow
                key={lesson.id}
                lesson={lesson}
                chapterId={chapter.id}
                props={props}
              />
            ))}
            {chapter.lessons.length === 0 && <li className="outline-board__empty">{t('outline.emptyChapter')}</li>}
          </ul>
        </SortableContext>
        {editable && (
          <Button type="dashed" block icon={<PlusOutlined />} onClick={() => props.onAddLesson(chapter)}>
            {t('outline.addLesson')}
          </Button>
        )}
      </Card>
    </section>
  );
}

/**
 * The chapters and their lessons, in order, for dragging into a new one (pointer or keyboard:
 * focus a handle, space, arrows, space), or with move buttons on phones. A lesson may move to
 * another chapter. Each drop that changes the order hands the whole new outline to `onReorder`.
 */
export function OutlineBoard(props: OutlineBoardProps) {
  const { outline, t } = props;
  // While a lesson is dragged across chapters, the board shows where it would land.
  const [draft, setDraft] = useState<Outline>();
  const shown = draft ?? outline;
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const titleOf = (data: DragData | undefined): string => {
    if (data === undefined) return '';
    if (data.type === 'lesson') {
      const place = lessonPlace(shown, data.lessonId);
      return place === undefined ? '' : (shown[place.chapter]?.lessons[place.index]?.title ?? '');
    }
    return shown.find((chapter) => chapter.id === data.chapterId)?.title ?? '';
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => t('outline.announce.start', { title: titleOf(dataOf(active)) }),
    onDragOver: ({ active, over }) => (over ? t('outline.announce.over', { title: titleOf(dataOf(active)) }) : undefined),
    onDragEnd: ({ active }) => t('outline.announce.end', { title: titleOf(dataOf(active)) }),
    onDragCancel: ({ active }) => t('outline.announce.cancel', { title: titleOf(dataOf(active)) }),
  };

  /** Where a dragged lesson goes when it is over `over`: that lesson's place, or the end of that chapter's list. */
  const lessonTarget = (current: Outline, over: DragData | undefined): { chapterId: number; index: number } | undefined => {
    if (over?.type === 'lesson') {
      const place = lessonPlace(current, over.lessonId);
      return place === undefined ? undefined : { chapterId: current[place.chapter]!.id, index: place.index };
    }
    if (over?.type === 'lessons') {
      const chapter = current.find((each) => each.id === over.chapterId);
      return chapter === undefined ? undefined : { chapterId: chapter.id, index: chapter.lessons.length };
    }
    return undefined;
  };

  const onDragStart = (_event: DragStartEvent) => setDraft(outline);

  const onDragOver = ({ active, over }: DragOverEvent) => {
    const dragged = dataOf(active);
    if (dragged?.type !== 'lesson' || draft === undefined) return;
    const target = lessonTarget(draft, dataOf(over));
    const place = lessonPlace(draft, dragged.lessonId);
    // Within its own chapter the sortable strategy shows the move; only a change of chapter moves it now.
    if (target === undefined || place === undefined || draft[place.chapter]!.id === target.chapterId) return;
    setDraft(moveLesson(draft, dragged.lessonId, target.chapterId, target.index));
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const current = draft ?? outline;
    setDraft(undefined);
    const dragged = dataOf(active);
    const target = dataOf(over);
    let next = current;
    if (dragged?.type === 'chapter' && target?.type === 'chapter') {
      next = moveChapter(current, dragged.chapterId, current.findIndex((chapter) => chapter.id === target.chapterId));
    } else if (dragged?.type === 'lesson') {
      const place = lessonTarget(current, target);
      if (place !== undefined) next = moveLesson(current, dragged.lessonId, place.chapterId, place.index);
    }
    if (!sameOrder(next, outline)) props.onReorder(next);
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collisionDetection}
      accessibility={{ announcements, screenReaderInstructions: { draggable: t('outline.dragHint') } }}
      onDragStart={onDragStart}
      onDragOver={onDragOver}
      onDragEnd={onDragEnd}
      onDragCancel={() => setDraft(undefined)}
    >
      <SortableContext items={shown.map((chapter) => chapterKey(chapter.id))} strategy={verticalListSortingStrategy}>
        <Flex vertical gap={12}>
          {shown.map((chapter, index) => (
            <ChapterCard key={chapter.id} chapter={chapter} index={index} shown={shown} props={props} />
          ))}
        </Flex>
      </SortableContext>
    </DndContext>
  );
}
