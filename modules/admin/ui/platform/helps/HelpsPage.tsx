import { PlayCircleOutlined } from '@ant-design/icons';
import { showError, useTranslation } from '@balcao/plugin-sdk/ui';
import { Card, Col, Empty, Modal, Row, Skeleton, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { type Help, useListHelpsQuery } from '../api';
import { embedUrl, isYoutubeId, thumbnailUrl } from './video';

/**
 * Help videos (/helps, docs/product/automation.md#screens-and-routes): a grid of cards (thumbnail, title, description); a card opens
 * the player in a dialog that Escape or a click on the backdrop closes.
 */
export function HelpsPage() {
  const { t } = useTranslation('admin');
  const { data, isLoading, error } = useListHelpsQuery();
  const [playing, setPlaying] = useState<Help | null>(null);

  useEffect(() => {
    if (error) showError(error);
  }, [error]);

  const helps = data ?? [];
  return (
    <Card>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('platform.helps.title')}
      </Typography.Title>
      {isLoading ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : helps.length === 0 ? (
        <Empty description={t('platform.helps.empty')} />
      ) : (
        <Row gutter={[16, 16]}>
          {helps.map((help) => (
            <Col xs={24} sm={12} lg={8} xl={6} key={help.id}>
              <Card
                hoverable
                role="button"
                tabIndex={0}
                aria-label={t('platform.helps.play', { title: help.title })}
                onClick={() => setPlaying(help)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' || event.key === ' ') setPlaying(help);
                }}
                cover={
                  isYoutubeId(help.video) ? (
                    <img
                      alt={help.title}
                      src={thumbnailUrl(help.video)}
                      loading="lazy"
                      style={{ aspectRatio: '16 / 9', objectFit: 'cover' }}
                    />
                  ) : (
                    <div style={{ aspectRatio: '16 / 9', display: 'grid', placeItems: 'center', fontSize: 40 }}>
                      <PlayCircleOutlined />
                    </div>
                  )
                }
              >
                <Card.Meta
                  title={help.title}
                  description={<Typography.Paragraph ellipsis={{ rows: 3 }}>{help.description}</Typography.Paragraph>}
                />
              </Card>
            </Col>
          ))}
        </Row>
      )}
      <Modal
        open={playing !== null}
        onCancel={() => setPlaying(null)}
        footer={null}
        destroyOnHidden
        width={860}
        title={playing?.title}
        keyboard
        mask={{ closable: true }}
      >
        {playing ? (
          isYoutubeId(playing.video) ? (
            <iframe
              title={playing.title}
              src={embedUrl(playing.video)}
              style={{ width: '100%', aspectRatio: '16 / 9', border: 0 }}
              allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture"
              allowFullScreen
            />
          ) : (
            <>
              <Typography.Paragraph>{playing.description}</Typography.Paragraph>
              {/^https?:\/\//.test(playing.video) ? (
                <Typography.Link href={playing.video} target="_blank" rel="noreferrer">
                  {playing.video}
                </Typography.Link>
              ) : null}
            </>
          )
        ) : null}
      </Modal>
    </Card>
  );
}
